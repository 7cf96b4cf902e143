import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { DeskWebhook, NewWebhookBody } from '../../../contract/webhooks.js';
import { withTransaction } from '../db/transaction.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import { DomainError } from '../domain-error.js';
import { sealSecret, type KeySecrets } from '../integrations/integrations.js';
import { readTargetUrl, resolveTarget } from './safe-target.js';

/**
 * An integration's webhooks (docs/ghost-api.md#webhooks), added and removed by owners from the
 * desk, each audited. An address is checked when it is added (an http(s) address whose host
 * resolves, to public addresses unless the operator allows private ones) and again at every
 * delivery, since what a name resolves to can change.
 */

/** How many webhooks one integration may have. */
export const MAX_WEBHOOKS = 20;

interface WebhookRow {
  id: string;
  integrationId: string;
  event: string;
  targetUrl: string;
  signed: boolean;
  createdAt: Date;
  lastTriggeredAt: Date | null;
  lastStatus: string | null;
}

const deskWebhook = (row: WebhookRow): DeskWebhook & { integrationId: string } => ({
  id: row.id,
  integrationId: row.integrationId,
  event: row.event,
  targetUrl: row.targetUrl,
  signed: row.signed,
  createdAt: row.createdAt.toISOString(),
  lastTriggeredAt: row.lastTriggeredAt?.toISOString() ?? null,
  lastStatus: row.lastStatus,
});

const COLUMNS = `"id", "integrationId", "event", "targetUrl", "secret" IS NOT NULL AS "signed",
  "createdAt", "lastTriggeredAt", "lastStatus"`;

/** Every webhook of one integration (or of all), oldest first. */
export async function listWebhooks(db: Pick<pg.Pool, 'query'>, integrationId?: string) {
  const { rows } = await db.query<WebhookRow>(
    `SELECT ${COLUMNS} FROM "webhooks" WHERE $1::uuid IS NULL OR "integrationId" = $1
      ORDER BY "createdAt", "id"`,
    [integrationId ?? null],
  );
  return rows.map(deskWebhook);
}

export async function addWebhook(
  pool: pg.Pool,
  actor: Pick<Staff, 'userId' | 'email'>,
  integrationId: string,
  body: NewWebhookBody,
  allowPrivate: boolean,
  secrets: KeySecrets,
) {
  const url = readTargetUrl(body.targetUrl);
  await resolveTarget(url, allowPrivate);
  const id = randomUUID();
  // Sealed as admin keys' secrets are: the database alone does not let anyone sign as us.
  const given = body.secret?.trim();
  const secret = given ? sealSecret(secrets, webhookSecretId(id), Buffer.from(given)) : null;
  return withTransaction(pool, async (tx) => {
    const { rows: found } = await tx.query<{ count: number }>(
      `SELECT (SELECT count(*)::int FROM "webhooks" WHERE "integrationId" = i."id") AS count
         FROM "integrations" i WHERE i."id" = $1 FOR UPDATE`,
      [integrationId],
    );
    const integration = found[0];
    if (!integration) {
      throw new DomainError(404, 'integration_not_found', 'There is no such integration.');
    }
    if (integration.count >= MAX_WEBHOOKS) {
      throw new DomainError(
        400,
        'too_many_webhooks',
        `An integration has at most ${MAX_WEBHOOKS} webhooks: remove one first.`,
      );
    }
    const { rows } = await tx.query<WebhookRow>(
      `INSERT INTO "webhooks" ("id", "integrationId", "event", "targetUrl", "secret")
       VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [id, integrationId, body.event, url.href, secret],
    );
    const webhook = deskWebhook(rows[0] as WebhookRow);
    await writeAudit(tx, actor, {
      action: 'webhook_create',
      targetUserId: null,
      before: null,
      after: { id: webhook.id, integrationId, event: webhook.event, targetUrl: webhook.targetUrl },
    });
    return webhook;
  });
}

/** Removes a webhook; what was waiting to be sent to it goes with it. 404 if there is none. */
export async function removeWebhook(
  pool: pg.Pool,
  actor: Pick<Staff, 'userId' | 'email'>,
  integrationId: string,
  webhookId: string,
): Promise<void> {
  await withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ id: string; event: string; targetUrl: string }>(
      `DELETE FROM "webhooks" WHERE "id" = $1 AND "integrationId" = $2
        RETURNING "id", "event", "targetUrl"`,
      [webhookId, integrationId],
    );
    if (!rows[0]) throw new DomainError(404, 'webhook_not_found', 'There is no such webhook.');
    await writeAudit(tx, actor, {
      action: 'webhook_delete',
      targetUserId: null,
      before: { ...rows[0], integrationId },
      after: null,
    });
  });
}

/** What a webhook's sealed secret is bound to (integrations.ts sealSecret). */
export function webhookSecretId(webhookId: string): string {
  return `webhook:${webhookId}`;
}
