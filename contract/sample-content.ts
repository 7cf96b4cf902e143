import { Type, type Static } from 'typebox';

// The sample content a new site loads from content/ (server/src/content/sample-content.ts),
// and the desk's "Remove the sample content": `GET /api/desk/samples` says what of it is still
// on the site, `POST /api/desk/samples/remove` takes it out (owners).

/** How many sample posts, perks and sections: on the site (GET), or taken out (POST). */
export const SampleCountsSchema = Type.Object({
  posts: Type.Integer({ minimum: 0 }),
  perks: Type.Integer({ minimum: 0 }),
  /** Sample sections no post of the site's own is in (those in use stay). */
  sections: Type.Integer({ minimum: 0 }),
});
export type SampleCounts = Static<typeof SampleCountsSchema>;

export const SamplesRemainingSchema = Type.Object({ remaining: SampleCountsSchema });
export const SamplesRemovedSchema = Type.Object({ removed: SampleCountsSchema });
