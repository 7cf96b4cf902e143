import { useEffect, useState } from 'react';
import { ApiError, apiRequest, describeFailure } from '../../lib/api-client';
import { EARLY_ACCESS_OFFER } from '../../../../contract/constants';

export type IntentState =
  | { kind: 'loading' }
  | { kind: 'ready'; clientSecret: string; amountCents?: number; fullPriceCents?: number }
  | { kind: 'member' }
  | { kind: 'unavailable'; message: string; offerRefused?: boolean };

/**
 * Asks the server for the early-access PaymentIntent once the page mounts (the seed's flow), with
 * an offer's code when the page was opened with one (`/join?offer=CODE`), for the tier the page
 * was opened for (`?tier=founder`; the default tier when none).
 */
export function usePaymentIntent(
  enabled: boolean,
  offer: string | null = null,
  tier: string | null = null,
): IntentState {
  const [state, setState] = useState<IntentState>({ kind: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    apiRequest<{ clientSecret: string; amountCents?: number; fullPriceCents?: number }>(
      '/create-payment-intent',
      {
        method: 'POST',
        body: {
          items: [{ id: EARLY_ACCESS_OFFER }],
          ...(offer && { offer }),
          ...(tier && { tier }),
        },
        signal: controller.signal,
      },
    ).then(
      (answer) => setState({ kind: 'ready', ...answer }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.code === 'already_member')
          setState({ kind: 'member' });
        else
          setState({
            kind: 'unavailable',
            message: describeFailure(error, 'Could not reach the server. Please reload the page.'),
            offerRefused: error instanceof ApiError && error.code === 'offer_invalid',
          });
      },
    );
    return () => controller.abort();
  }, [enabled, offer, tier]);
  return state;
}
