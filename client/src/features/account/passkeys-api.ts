import { useSyncExternalStore } from 'react';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { Static } from 'typebox';
import type { User } from '../../../../contract/api';
import type {
  Passkey,
  PasskeyRegisterBodySchema,
  PasskeyRenameBodySchema,
  PasskeySignInBodySchema,
} from '../../../../contract/passkeys';
import { ApiError, apiRequest } from '../../lib/api-client';

// Passkeys: one function per endpoint, and the two ceremonies. @simplewebauthn/browser is loaded
// when a ceremony starts (only /account and /login start one), so no other page carries it.

const noSubscription = () => () => {};
/**
 * Whether this browser can make and use passkeys: false while prerendering and hydrating (the
 * server cannot know), then the browser's answer.
 */
export const useWebAuthnSupport = (): boolean =>
  useSyncExternalStore(
    noSubscription,
    () => typeof window.PublicKeyCredential === 'function',
    () => false,
  );

/** @simplewebauthn/browser, loaded on first use. */
export const loadWebAuthn = () => import('@simplewebauthn/browser');

type PasskeysAnswer = Promise<{ passkeys: Passkey[] }>;

export const listPasskeys = (signal?: AbortSignal): PasskeysAnswer =>
  apiRequest('/api/account/passkeys', { signal });

export const renamePasskey = (id: string, name: string): PasskeysAnswer =>
  apiRequest(`/api/account/passkeys/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { name } satisfies Static<typeof PasskeyRenameBodySchema>,
  });

export const removePasskey = (id: string): PasskeysAnswer =>
  apiRequest(`/api/account/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** Makes a passkey in this browser (its own prompt) and adds it to the signed-in account. */
export async function addPasskey(name: string): PasskeysAnswer {
  const { startRegistration } = await loadWebAuthn();
  const { options } = await apiRequest<{ options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/auth/passkey/register/options',
    { method: 'POST' },
  );
  const response: RegistrationResponseJSON = await startRegistration({ optionsJSON: options });
  return apiRequest('/api/auth/passkey/register/verify', {
    method: 'POST',
    body: {
      response,
      ...(name.trim() && { name: name.trim() }),
    } satisfies Static<typeof PasskeyRegisterBodySchema>,
  });
}

/**
 * Signs in with a passkey: from the browser's own prompt, or (`autofill`) from the suggestions
 * under the email field, which wait until the visitor picks one.
 */
export async function signInWithPasskey({ autofill }: { autofill: boolean }): Promise<{
  user: User;
}> {
  const { sendSignal, startAuthentication } = await loadWebAuthn();
  const { options } = await apiRequest<{ options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/auth/passkey/sign-in/options',
    { method: 'POST' },
  );
  const response: AuthenticationResponseJSON = await startAuthentication({
    optionsJSON: options,
    useBrowserAutofill: autofill,
  });
  try {
    return await apiRequest('/api/auth/passkey/sign-in/verify', {
      method: 'POST',
      body: { response } satisfies Static<typeof PasskeySignInBodySchema>,
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'passkey_not_recognized' && options.rpId) {
      // A passkey removed from the account: the browser may stop offering it (best effort).
      void sendSignal({
        signalName: 'unknownCredential',
        rpID: options.rpId,
        credentialID: response.id,
      }).catch(() => undefined);
    }
    throw error;
  }
}

/** What to tell the visitor when a ceremony did not end well; null when they simply stopped it. */
export function passkeyProblem(error: unknown, fallback: string): string | null {
  if (!(error instanceof Error)) return fallback;
  if ('code' in error && error.code === 'ERROR_CEREMONY_ABORTED') return null;
  if ('code' in error && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return 'This device already holds a passkey for your account.';
  }
  if (error instanceof ApiError) return error.message;
  if (error.name === 'NotAllowedError') {
    return 'The passkey prompt was closed or timed out. Nothing was changed.';
  }
  return fallback;
}
