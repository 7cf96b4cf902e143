import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Reader } from '../../../contract/reading.js';
import { readerOfUser } from '../content/readers.js';
import { isMembershipActive, type MembershipState } from '../memberships/memberships.js';

// A member's private feed of a podcast is at `/feeds/<token>.xml`: the token is the address's
// secret, a podcast app's only credential (apps send no cookie), so it is random (24 bytes) and
// shown to its member on /account as often as they ask. Making a new one replaces it: the old
// address answers 404 from then on. The feed answers only while its member is one.

type Db = Pick<pg.Pool, 'query'>;

/** 24 random bytes as base64url: 32 characters. */
export const FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** The member's private feed tokens, by the podcast's section id. */
export async function readFeedTokens(db: Db, userId: string): Promise<Map<number, string>> {
  const { rows } = await db.query<{ sectionId: number; token: string }>(
    `SELECT "sectionId", "token" FROM "podcast_feed_tokens" WHERE "userId" = $1`,
    [userId],
  );
  return new Map(rows.map((row) => [row.sectionId, row.token]));
}

/** A new token for the member's feed of the section, in place of the one it had. */
export async function makeFeedToken(db: Db, userId: string, sectionId: number): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await db.query(
    `INSERT INTO "podcast_feed_tokens" ("userId", "sectionId", "token") VALUES ($1, $2, $3)
      ON CONFLICT ("userId", "sectionId") DO UPDATE SET "token" = $3, "createdAt" = now()`,
    [userId, sectionId, token],
  );
  return token;
}

/**
 * Whose feed of which podcast a token opens, if its member is one now, with who they are as a
 * reader (contract/reading.ts: the feed and its files give what they may read); null for a token
 * no feed has (never made, or replaced) and for a member whose membership ended.
 */
export async function openFeedToken(
  db: Db,
  token: string,
): Promise<{ userId: string; sectionId: number; reader: Reader } | null> {
  if (!FEED_TOKEN_PATTERN.test(token)) return null;
  const { rows } = await db.query<{
    userId: string;
    sectionId: number;
    emailVerified: boolean;
    plan: MembershipState['plan'] | null;
    status: string | null;
    expiresAt: Date | null;
    tier: string | null;
  }>(
    `SELECT t."userId", t."sectionId", u."emailVerifiedAt" IS NOT NULL AS "emailVerified",
            m."plan", m."status", m."expiresAt", tr."slug" AS tier
       FROM "podcast_feed_tokens" t JOIN "users" u ON u."id" = t."userId"
       LEFT JOIN "memberships" m ON m."userId" = t."userId"
       LEFT JOIN "tiers" tr ON tr."id" = m."tierId"
      WHERE t."token" = $1`,
    [token],
  );
  const row = rows[0];
  if (!row) return null;
  const membership =
    row.plan && row.status && row.expiresAt
      ? {
          plan: row.plan,
          status: row.status,
          expiresAt: row.expiresAt,
          ...(row.tier !== null && { tier: row.tier }),
        }
      : null;
  if (!isMembershipActive(membership)) return null;
  const reader = readerOfUser({ emailVerified: row.emailVerified, membership });
  return { userId: row.userId, sectionId: row.sectionId, reader };
}
