import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import type pg from 'pg';
import { MAX_INTEGRATION_NAME } from '../../../contract/integrations-api.js';
import { contentChanged } from '../content/content-changes.js';
import type { Staff } from '../staff/staff.js';
import { writeAudit } from '../staff/audit.js';
import { DomainError } from '../domain-error.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { cleanLine } from '../../../contract/text-hygiene.js';

/**
 * Integrations and the keys to Ghost's APIs (docs/ghost-api.md). An integration is a name with a
 * content key (26 hex digits, as Ghost's) and an admin key (`<24 hex id>:<64 hex secret>`). Neither
 * is stored as it was shown: a content key as its SHA-256, found again by it; an admin key's id
 * plainly and its secret encrypted (AES-256-GCM) under a key derived from SESSION_SECRET, since the
 * Admin API must read it back to check a token's HS256 signature. A staff member's own admin key
 * (Ghost's staff access token) is the same kind of row with a user instead of an integration.
 * Deleting an integration deletes its keys in the same statement: both stop at once.
 */

export type ApiKeyKind = 'content' | 'admin';

/** SESSION_SECRET, then SESSION_SECRET_PREVIOUS while it is being rotated. */
export type KeySecrets = readonly string[];

/** The site's key secrets from its configuration. */
export function keySecretsOf(config: {
  sessionSecret?: string | undefined;
  sessionSecretPrevious?: string | undefined;
}): KeySecrets {
  return [config.sessionSecret, config.sessionSecretPrevious].filter(
    (secret): secret is string => typeof secret === 'string' && secret !== '',
  );
}

export interface IntegrationListed {
  id: string;
  name: string;
  createdAt: string;
  /** Who made it, if the account still has an address. */
  createdBy: string | null;
  /** The content key's last four characters. */
  contentKeyHint: string;
  /** The admin key's id (the part before the colon): not a secret. */
  adminKeyId: string;
}

/** What creating an integration answers: the keys, shown this once. */
export interface IntegrationCreated {
  id: string;
  name: string;
  contentKey: string;
  adminKey: string;
}

/** How many integrations a site may have: enough for every tool, not a table to fill. */
export const MAX_INTEGRATIONS = 100;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
const CONTENT_KEY = /^[0-9a-f]{26}$/;
const KEY_ID = /^[0-9a-f]{24}$/;

/** The AES key for admin secrets, derived from one session secret. */
function vaultKey(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionSecret, 'cohort-api-keys', 'admin-key-secret', 32));
}

/**
 * `v1.<iv>.<tag>.<ciphertext>` (base64url), `keyId` bound in as associated data: an admin key's
 * secret under its id, a webhook's under `webhook:<its id>` (webhooks/webhook-store.ts).
 */
export function sealSecret(secrets: KeySecrets, keyId: string, secret: Buffer): string {
  const [current] = secrets;
  if (!current) throw new Error('Admin keys need SESSION_SECRET');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', vaultKey(current), iv);
  cipher.setAAD(Buffer.from(keyId));
  const sealed = Buffer.concat([cipher.update(secret), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The secret, under the current session secret or the previous one; null if neither opens it. */
export function openSecret(secrets: KeySecrets, keyId: string, stored: string): Buffer | null {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || sealed === undefined) return null;
  for (const sessionSecret of secrets) {
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        vaultKey(sessionSecret),
        Buffer.from(iv, 'base64url'),
      );
      decipher.setAAD(Buffer.from(keyId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]);
    } catch {
      // Sealed under another secret: try the next.
    }
  }
  return null;
}

/** Whose an API key is: an integration's, or a staff member's own. */
export type KeyOwner = { integrationId: string } | { userId: string };

const ownerColumns = (owner: KeyOwner) =>
  'integrationId' in owner ? [owner.integrationId, null] : [null, owner.userId];

/** Makes an admin key for an integration or a staff member; answers it whole (`id:secret`). */
export async function createAdminKey(
  tx: Tx,
  secrets: KeySecrets,
  owner: KeyOwner,
): Promise<string> {
  const id = randomBytes(12).toString('hex');
  const secret = randomBytes(32);
  const hex = secret.toString('hex');
  await tx.query(
    `INSERT INTO "api_keys" ("id", "kind", "integrationId", "userId", "secret", "hint")
     VALUES ($1, 'admin', $2, $3, $4, $5)`,
    [id, ...ownerColumns(owner), sealSecret(secrets, id, secret), hex.slice(-4)],
  );
  return `${id}:${hex}`;
}

/** Makes a content key for an integration; answers it (26 hex digits). */
export async function createContentKey(tx: Tx, integrationId: string): Promise<string> {
  const key = randomBytes(13).toString('hex');
  await tx.query(
    `INSERT INTO "api_keys" ("id", "kind", "integrationId", "hash", "hint")
     VALUES ($1, 'content', $2, $3, $4)`,
    [randomBytes(12).toString('hex'), integrationId, hashKey(key), key.slice(-4)],
  );
  return key;
}

function cleanName(name: string): string {
  const trimmed = cleanLine(name);
  if (trimmed === '') {
    throw new DomainError(400, 'invalid_integration', 'Give the integration a name.');
  }
  if (trimmed.length > MAX_INTEGRATION_NAME) {
    throw new DomainError(
      400,
      'invalid_integration',
      `An integration's name is at most ${MAX_INTEGRATION_NAME} characters.`,
    );
  }
  return trimmed;
}

/** Makes an integration with its two keys, audited; the keys are in the answer and nowhere else. */
export async function createIntegration(
  pool: pg.Pool,
  secrets: KeySecrets,
  actor: Pick<Staff, 'userId' | 'email'>,
  input: { name: string },
): Promise<IntegrationCreated> {
  const name = cleanName(input.name);
  return withTransaction(pool, async (tx) => {
    // One at a time, so the count below holds.
    await tx.query(`LOCK TABLE "integrations" IN SHARE ROW EXCLUSIVE MODE`);
    const { rows } = await tx.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "integrations"`,
    );
    if ((rows[0]?.count ?? 0) >= MAX_INTEGRATIONS) {
      throw new DomainError(
        400,
        'too_many_integrations',
        `A site has at most ${MAX_INTEGRATIONS} integrations: delete one you no longer use.`,
      );
    }
    const id = randomUUID();
    await tx.query(`INSERT INTO "integrations" ("id", "name", "createdBy") VALUES ($1, $2, $3)`, [
      id,
      name,
      actor.userId,
    ]);
    const contentKey = await createContentKey(tx, id);
    const adminKey = await createAdminKey(tx, secrets, { integrationId: id });
    await writeAudit(tx, actor, {
      action: 'integration_create',
      targetUserId: null,
      before: null,
      after: { id, name, adminKeyId: adminKey.split(':')[0] },
    });
    return { id, name, contentKey, adminKey };
  });
}

/** Every integration, newest first, without its secrets. */
export async function listIntegrations(db: Pick<pg.Pool, 'query'>): Promise<IntegrationListed[]> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    createdAt: Date;
    createdBy: string | null;
    contentKeyHint: string | null;
    adminKeyId: string | null;
  }>(
    `SELECT i."id", i."name", i."createdAt", u."email" AS "createdBy",
       (SELECT k."hint" FROM "api_keys" k WHERE k."integrationId" = i."id" AND k."kind" = 'content'
         ORDER BY k."createdAt" LIMIT 1) AS "contentKeyHint",
       (SELECT k."id" FROM "api_keys" k WHERE k."integrationId" = i."id" AND k."kind" = 'admin'
         ORDER BY k."createdAt" LIMIT 1) AS "adminKeyId"
     FROM "integrations" i LEFT JOIN "users" u ON u."id" = i."createdBy"
     ORDER BY i."createdAt" DESC, i."id"`,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    contentKeyHint: row.contentKeyHint ?? '',
    adminKeyId: row.adminKeyId ?? '',
  }));
}

/**
 * Deletes an integration and its keys, audited; 404 if there is no such integration. Answers the
 * content generation it moved the site to: the Content API keeps the keys it has checked for one
 * generation of the content (routes/ghost-api/content.ts), so every server forgets them with it.
 */
export async function deleteIntegration(
  pool: pg.Pool,
  actor: Pick<Staff, 'userId' | 'email'>,
  id: string,
): Promise<number> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ id: string; name: string }>(
      `DELETE FROM "integrations" WHERE "id" = $1 RETURNING "id", "name"`,
      [id],
    );
    const deleted = rows[0];
    if (!deleted) {
      throw new DomainError(404, 'integration_not_found', 'There is no such integration.');
    }
    await writeAudit(tx, actor, {
      action: 'integration_delete',
      targetUserId: null,
      before: deleted,
      after: null,
    });
    return contentChanged(tx);
  });
}

/** The integration a content key belongs to, or null for a key that is not (or no longer) one. */
export async function findIntegrationByContentKey(
  db: Pick<pg.Pool, 'query'>,
  key: string,
): Promise<{ integrationId: string } | null> {
  if (!CONTENT_KEY.test(key)) return null;
  const { rows } = await db.query<{ integrationId: string }>(
    `SELECT "integrationId" FROM "api_keys"
      WHERE "hash" = $1 AND "kind" = 'content' AND "integrationId" IS NOT NULL`,
    [hashKey(key)],
  );
  return rows[0] ?? null;
}

/** An admin key's secret (to check a token's signature) and whose key it is; null: no such key. */
export async function adminKeySecret(
  db: Pick<pg.Pool, 'query'>,
  secrets: KeySecrets,
  keyId: string,
): Promise<{ secret: Buffer; integrationId: string | null; userId: string | null } | null> {
  if (!KEY_ID.test(keyId)) return null;
  const { rows } = await db.query<{
    secret: string | null;
    integrationId: string | null;
    userId: string | null;
  }>(
    `SELECT "secret", "integrationId", "userId" FROM "api_keys"
      WHERE "id" = $1 AND "kind" = 'admin'`,
    [keyId],
  );
  const row = rows[0];
  if (!row?.secret) return null;
  const secret = openSecret(secrets, keyId, row.secret);
  return secret ? { secret, integrationId: row.integrationId, userId: row.userId } : null;
}
