import { Type, type Static } from 'typebox';

// The HTTP schemas of the desk's integrations (`/api/desk/integrations`): keys to Ghost's Content
// and Admin APIs for tools made for Ghost (docs/ghost-api.md).

export const MAX_INTEGRATION_NAME = 100;

export const IntegrationCreateSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_INTEGRATION_NAME }),
  },
  { additionalProperties: false },
);
export type IntegrationCreate = Static<typeof IntegrationCreateSchema>;

/** A new integration with its keys: the one time they are shown. */
export const CreatedIntegrationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** 26 hex digits, for `?key=` on the Content API. */
  contentKey: Type.String(),
  /** `<24 hex id>:<64 hex secret>`, to sign the Admin API's tokens. */
  adminKey: Type.String(),
});
export type CreatedIntegration = Static<typeof CreatedIntegrationSchema>;

/** An integration as the desk lists it: no secret, only enough to tell its keys apart. */
export const IntegrationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  /** The content key's last four characters. */
  contentKeyHint: Type.String(),
  /** The admin key's id (before its colon), which is not a secret. */
  adminKeyId: Type.String(),
});
export type Integration = Static<typeof IntegrationSchema>;

export const IntegrationListSchema = Type.Object({
  integrations: Type.Array(IntegrationSchema),
  /** The address to give a tool as its API URL: the site's. */
  apiUrl: Type.String(),
});
export type IntegrationList = Static<typeof IntegrationListSchema>;
