import { DESK_API } from '../../../../contract/constants';
import type { DeskTier, NewTier, TierChange } from '../../../../contract/tiers';
import { apiRequest } from '../../lib/api-client';

// The desk's tiers (server/src/routes/desk/tier-routes.ts).

export interface DeskTiers {
  tiers: DeskTier[];
  /** Null when Stripe's keys are set; else what is off and what to set. */
  paymentsOff: string | null;
}

/** Every tier in order, with how many members hold it and how many posts name it. */
export const fetchTiers = (signal?: AbortSignal): Promise<DeskTiers> =>
  apiRequest(`${DESK_API}/tiers`, { signal });

export const createTier = (body: NewTier): Promise<{ tier: DeskTier }> =>
  apiRequest(`${DESK_API}/tiers`, { method: 'POST', body });

export const changeTier = (slug: string, body: TierChange): Promise<{ tier: DeskTier }> =>
  apiRequest(`${DESK_API}/tiers/${encodeURIComponent(slug)}`, { method: 'PATCH', body });

/** Deletes a tier nobody holds and nothing names (else a 409 that says what does). */
export const deleteTier = (slug: string): Promise<DeskTiers> =>
  apiRequest(`${DESK_API}/tiers/${encodeURIComponent(slug)}`, { method: 'DELETE' });
