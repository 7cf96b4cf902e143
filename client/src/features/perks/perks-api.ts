import type { PerkRedemption } from '../../../../contract/api';
import { apiRequest } from '../../lib/api-client';

/** A member's code or link for a perk: the same one on every later call. */
export const redeemPerk = (perkId: string): Promise<PerkRedemption> =>
  apiRequest(`/api/perks/${encodeURIComponent(perkId)}/redeem`, { method: 'POST' });
