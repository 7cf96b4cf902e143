import { FormError } from '../../components/form-field';
import { useEffect, useEffectEvent, useState } from 'react';
import type { User } from '../../../../contract/api';
import { ApiError } from '../../lib/api-client';
import {
  loadWebAuthn,
  passkeyProblem,
  signInWithPasskey,
  useWebAuthnSupport,
} from './passkeys-api';

/**
 * The sign-in page's passkey: a button for the browser's prompt, and, where the browser offers
 * them, the account's passkeys among the email field's suggestions (conditional mediation: the
 * field says `autocomplete="username webauthn"`), waiting from the moment the page opens.
 */
export default function PasskeySignIn({ onSignedIn }: { onSignedIn(user: User): void }) {
  const supported = useWebAuthnSupport();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const signedIn = useEffectEvent((user: User) => onSignedIn(user));

  useEffect(() => {
    if (typeof window.PublicKeyCredential !== 'function') return;
    let left = false;
    void (async () => {
      const webauthn = await loadWebAuthn();
      if (left || !(await webauthn.browserSupportsWebAuthnAutofill())) return;
      try {
        const { user } = await signInWithPasskey({ autofill: true });
        if (!left) signedIn(user);
      } catch (error) {
        // Only the server's refusal of a passkey the reader picked is theirs to read. The browser
        // ending the wait (leaving the page, pressing the button) or refusing to start it (a site
        // served from an address no passkey can belong to) happened without them.
        if (!left && error instanceof ApiError) setProblem(error.message);
      }
    })();
    return () => {
      left = true;
      void loadWebAuthn().then((webauthn) => webauthn.WebAuthnAbortService.cancelCeremony());
    };
  }, []);

  async function signIn() {
    setBusy(true);
    setProblem(null);
    try {
      onSignedIn((await signInWithPasskey({ autofill: false })).user);
    } catch (error) {
      setProblem(passkeyProblem(error, 'Could not sign in with a passkey.'));
      setBusy(false);
    }
  }

  if (!supported) return null;
  return (
    <div className="passkey-sign-in">
      <p className="passkey-sign-in__or">or</p>
      <button
        type="button"
        className="button button--outline"
        disabled={busy}
        onClick={() => void signIn()}
      >
        Sign in with a passkey
      </button>
      <FormError message={problem ?? undefined} />
    </div>
  );
}
