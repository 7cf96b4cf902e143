import { Type, type Static } from 'typebox';

/**
 * Passkeys (decision 15): the WebAuthn answers the browser sends back, and the passkeys `/account`
 * lists. The options the server hands out are SimpleWebAuthn's own JSON, passed through as they
 * are: the client types them with @simplewebauthn/browser.
 */

const Base64Url = (maxLength: number) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+={0,2}$' });
/** A credential id is at most 1023 bytes: 1364 characters of base64url. */
const CredentialId = Base64Url(1400);
/** Extensions the browser reports: none is read, so none is checked. */
const ClientExtensionResults = Type.Object({}, { additionalProperties: true });
const AuthenticatorAttachment = Type.Union([
  Type.Literal('platform'),
  Type.Literal('cross-platform'),
]);

/** What navigator.credentials.create() gave, as @simplewebauthn/browser encodes it. */
export const RegistrationResponseSchema = Type.Object(
  {
    id: CredentialId,
    rawId: CredentialId,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: Base64Url(4096),
        attestationObject: Base64Url(65536),
        authenticatorData: Type.Optional(Base64Url(16384)),
        transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        publicKey: Type.Optional(Base64Url(16384)),
      },
      { additionalProperties: true },
    ),
    authenticatorAttachment: Type.Optional(AuthenticatorAttachment),
    clientExtensionResults: ClientExtensionResults,
  },
  { additionalProperties: true },
);

/** What navigator.credentials.get() gave, as @simplewebauthn/browser encodes it. */
export const AuthenticationResponseSchema = Type.Object(
  {
    id: CredentialId,
    rawId: CredentialId,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: Base64Url(4096),
        authenticatorData: Base64Url(16384),
        signature: Base64Url(2048),
        userHandle: Type.Optional(Base64Url(128)),
      },
      { additionalProperties: true },
    ),
    authenticatorAttachment: Type.Optional(AuthenticatorAttachment),
    clientExtensionResults: ClientExtensionResults,
  },
  { additionalProperties: true },
);

export const PASSKEY_NAME_MAX_LENGTH = 60;
const PasskeyName = Type.String({ maxLength: PASSKEY_NAME_MAX_LENGTH });

/** POST /api/auth/passkey/register/verify: the new credential and, if the owner typed one, its name. */
export const PasskeyRegisterBodySchema = Type.Object(
  { response: RegistrationResponseSchema, name: Type.Optional(PasskeyName) },
  { additionalProperties: false },
);
/** POST /api/auth/passkey/sign-in/verify. */
export const PasskeySignInBodySchema = Type.Object(
  { response: AuthenticationResponseSchema },
  { additionalProperties: false },
);
/** PATCH /api/account/passkeys/:id. */
export const PasskeyRenameBodySchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: PASSKEY_NAME_MAX_LENGTH }) },
  { additionalProperties: false },
);

/** The options for navigator.credentials.create() or .get(), SimpleWebAuthn's JSON as it is. */
export const PasskeyOptionsResponseSchema = Type.Object({
  options: Type.Object({}, { additionalProperties: true }),
});

/** One of the account's passkeys, as `/account` lists them. */
export const PasskeySchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Synced by its provider to the owner's other devices (the credential is backed up). */
  synced: Type.Boolean(),
});
export type Passkey = Static<typeof PasskeySchema>;
export const PasskeysResponseSchema = Type.Object({ passkeys: Type.Array(PasskeySchema) });
