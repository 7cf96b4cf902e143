import { createHash } from 'node:crypto';

/**
 * The ids Ghost's shapes carry (the Ghost export, the Content and Admin APIs, webhooks): derived
 * from the site's address and the row's own id, so two exports of the same site, and every answer
 * of the APIs, name the same posts, members and tiers the same way (an importer matching by id
 * finds them again).
 */

/** A Ghost object id (24 hex digits, as Ghost's own), stable for the same site and row. */
export function ghostId(siteUrl: string, kind: string, key: string | number): string {
  return createHash('sha1')
    .update(`${siteUrl}\u0000${kind}\u0000${key}`)
    .digest('hex')
    .slice(0, 24);
}

/** A name-based UUID (version 5's layout), stable for the same site and row. */
export function ghostUuid(siteUrl: string, kind: string, key: string | number): string {
  const hex = createHash('sha1')
    .update(`uuid\u0000${siteUrl}\u0000${kind}\u0000${key}`)
    .digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Ghost's id of a tier of the site (`free`: Ghost's free tier). */
export const ghostTierId = (siteUrl: string, tierId: number | 'free') =>
  ghostId(siteUrl, 'tier', tierId);
