import type { WebhookEvent } from '../../../contract/webhooks.js';

/**
 * The events webhooks out are told of, recorded where they happen: in the transaction of the
 * change itself (publishing, unpublishing, a member made or deleted), so an event is sent only
 * for a change that committed, and never lost for one that did. A row per webhook of that event
 * (none when no integration asked for it: one small query); the job queue sends them
 * (webhooks/webhook-delivery.ts). The domain knows nothing of HTTP here: it writes rows. The
 * outbox sits below every module that writes to it (memberships/ included) and imports none.
 */

/** A transaction's connection, as node-postgres's and (through a small adapter) Prisma's are. */
export interface EventWriter {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/** A post event: which post, and what of it was different before (Ghost's `previous`). */
export interface PostEventSubject {
  postId: number;
  previous: Record<string, unknown>;
}

/** A member event: the member's JSON in Ghost's shape, now and before. */
export interface MemberEventSubject {
  member: { current: Record<string, unknown>; previous: Record<string, unknown> };
}

export async function recordWebhookEvent(
  tx: EventWriter,
  event: WebhookEvent,
  subject: PostEventSubject | MemberEventSubject,
): Promise<void> {
  await tx.query(
    `INSERT INTO "webhook_deliveries" ("id", "webhookId", "event", "payload")
      SELECT gen_random_uuid(), w."id", w."event", $2::jsonb FROM "webhooks" w WHERE w."event" = $1`,
    [event, JSON.stringify(subject)],
  );
}

/** Prisma's interactive transaction as an EventWriter. */
export const prismaEventWriter = (tx: {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}): EventWriter => ({ query: (text, values) => tx.$executeRawUnsafe(text, ...values) });

/**
 * Records a member event, the member read (in Ghost's shape) inside the same transaction: before
 * the row goes, for a deletion. Writes nothing when no webhook wants the event.
 */
export async function recordMemberEvent(
  tx: EventWriter,
  event: 'member.added' | 'member.deleted',
  userId: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO "webhook_deliveries" ("id", "webhookId", "event", "payload")
      SELECT gen_random_uuid(), w."id", w."event",
             jsonb_build_object('member', jsonb_build_object(
               'current', CASE WHEN $1::text = 'member.deleted' THEN '{}'::jsonb ELSE m.json END,
               'previous', CASE WHEN $1::text = 'member.deleted' THEN m.json ELSE '{}'::jsonb END))
        FROM "webhooks" w, (${memberJsonSql('$2')}) m
       WHERE w."event" = $1::text`,
    [event, userId],
  );
}

/**
 * A member (the user id in the query parameter `param`, `$1` say) in Ghost's member JSON, as one
 * row `json`: what members' events carry and the Admin API's members/ answer
 * (server/src/ghost-admin/admin-members.ts).
 */
export const memberJsonSql = (param: string) => `
  SELECT jsonb_build_object(
    'id', u."id", 'uuid', u."id", 'email', u."email", 'name', u."name", 'note', u."note",
    'geolocation', NULL,
    'subscribed', coalesce(s."state" = 'confirmed', false),
    'status', CASE WHEN ms."status" IN ('active', 'trialing', 'past_due')
                    AND ms."expiresAt" > now() THEN 'paid' ELSE 'free' END,
    'labels', coalesce((SELECT jsonb_agg(jsonb_build_object('name', l, 'slug',
                 trim(both '-' from regexp_replace(lower(l), '[^a-z0-9]+', '-', 'g'))))
               FROM unnest(u."labels") AS l), '[]'::jsonb),
    'newsletters', CASE WHEN s."state" = 'confirmed'
                     THEN jsonb_build_array(jsonb_build_object('id', 'newsletter', 'status', 'active'))
                     ELSE '[]'::jsonb END,
    'created_at', to_char(u."createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(u."updatedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  ) AS json
  FROM "users" u
  LEFT JOIN "newsletter_subscribers" s ON s."email" = u."email"
  LEFT JOIN "memberships" ms ON ms."userId" = u."id"
  WHERE u."id" = ${param}::uuid`;

/** What a post event needs of the post as it was. */
export interface PostBefore {
  id: number;
  kind: string;
  status: string;
  publishedAt: Date | string | null;
  updatedAt: Date | string;
}

const isoOf = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

/**
 * Records `post.published` or `post.unpublished` for a post going live or coming off, with what
 * was different before as Ghost's `previous` says it. Standalone pages are Ghost's pages, whose
 * events are not sent.
 */
export async function recordPostEvent(
  tx: EventWriter,
  event: 'post.published' | 'post.unpublished',
  before: PostBefore,
): Promise<void> {
  if (before.kind === 'page') return;
  await recordWebhookEvent(tx, event, {
    postId: before.id,
    previous: {
      status: before.status,
      published_at: isoOf(before.publishedAt),
      updated_at: isoOf(before.updatedAt),
    },
  });
}
