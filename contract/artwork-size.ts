/** Every hero image is drawn at this size: one 16:9 ratio, so boxes are sized before it loads. */
export const ARTWORK_SIZE = { width: 1600, height: 900 } as const;
