import { Type, type Static } from 'typebox';

/** The events a webhook out is told of (docs/ghost-api.md#webhooks), by Ghost's names. */
export const WEBHOOK_EVENTS = [
  'post.published',
  'post.unpublished',
  'member.added',
  'member.deleted',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** POST /api/desk/integrations/:id/webhooks. */
export const NewWebhookBodySchema = Type.Object(
  {
    event: Type.Enum(WEBHOOK_EVENTS, {
      errorMessage: `must be one of ${WEBHOOK_EVENTS.join(', ')}`,
    }),
    targetUrl: Type.String({
      minLength: 1,
      maxLength: 2000,
      errorMessage: 'must be the http(s) address to send the event to',
    }),
    secret: Type.Optional(
      Type.String({ maxLength: 200, errorMessage: 'must be text of at most 200 characters' }),
    ),
  },
  { additionalProperties: false },
);
export type NewWebhookBody = Static<typeof NewWebhookBodySchema>;

/** A webhook as the desk lists it with its integration (its secret never leaves). */
export const DeskWebhookSchema = Type.Object({
  id: Type.String(),
  event: Type.String(),
  targetUrl: Type.String(),
  signed: Type.Boolean(),
  createdAt: Type.String(),
  lastTriggeredAt: Type.Union([Type.String(), Type.Null()]),
  lastStatus: Type.Union([Type.String(), Type.Null()]),
});
export type DeskWebhook = Static<typeof DeskWebhookSchema>;
