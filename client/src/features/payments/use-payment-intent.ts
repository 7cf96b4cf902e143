import { useEffect, useState } from 'react';
import { ApiError, apiRequest } from '../../lib/api-client';
import { EARLY_ACCESS_OFFER } from '../../../../contract/constants';

export type IntentState =
  | { kind: 'loading' }
  | { kind: 'ready'; clientSecret: string }
  | { kind: 'member' }
  | { kind: 'unavailable'; message: string };

/** Asks the server for the early-access PaymentIntent once the page mounts (the seed's flow). */
export function usePaymentIntent(enabled: boolean): IntentState {
  const [state, setState] = useState<IntentState>({ kind: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    apiRequest<{ clientSecret: string }>('/create-payment-intent', {
      method: 'POST',
      body: { items: [{ id: EARLY_ACCESS_OFFER }] },
      signal: controller.signal,
    }).then(
      ({ clientSecret }) => setState({ kind: 'ready', clientSecret }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.code === 'already_member')
          setState({ kind: 'member' });
        else
          setState({
            kind: 'unavailable',
            message:
              error instanceof ApiError
                ? error.message
                : 'Could not reach the server. Please reload the page.',
          });
      },
    );
    return () => controller.abort();
  }, [enabled]);
  return state;
}
