import { DESK_API } from '../../../../contract/constants';
import type { Redirects, RedirectsPut } from '../../../../contract/redirects-api';
import { apiRequest } from '../../lib/api-client';

// The desk's Redirects page (server/src/routes/desk/redirects.ts): the publisher's own redirects,
// in Ghost's redirects.json or redirects.yaml.

export const fetchRedirects = (signal?: AbortSignal): Promise<Redirects> =>
  apiRequest<Redirects>(`${DESK_API}/redirects`, { signal });

/** Replaces every redirect with the file's; answers them as saved. */
export const saveRedirects = (change: RedirectsPut): Promise<Redirects> =>
  apiRequest<Redirects>(`${DESK_API}/redirects`, { method: 'PUT', body: change });
