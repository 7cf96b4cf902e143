import type { DeskAuthor, DeskProfile } from '../../../../contract/authors';
import { DESK_API } from '../../../../contract/constants';
import { apiRequest } from '../../lib/api-client';

/** Authors (contract/authors.ts): the signed-in staff member's profile, and every author. */

export interface ProfileChanges {
  name: string;
  slug: string;
  bio: string;
  picture: string | null;
  links: string[];
}

export const fetchProfile = (signal?: AbortSignal): Promise<{ profile: DeskProfile }> =>
  apiRequest(`${DESK_API}/profile`, { signal });

export const saveProfile = (changes: ProfileChanges): Promise<{ profile: DeskProfile }> =>
  apiRequest(`${DESK_API}/profile`, { method: 'PATCH', body: changes });

/** The staff an editor may name as a post's authors. */
export const fetchAuthors = (signal?: AbortSignal): Promise<{ authors: DeskAuthor[] }> =>
  apiRequest(`${DESK_API}/authors`, { signal });

/** The staff member's own Admin API key (Ghost's staff access token): whether there is one. */
export interface StaffTokenState {
  keyId: string | null;
  createdAt: string | null;
}

export const fetchStaffToken = (signal?: AbortSignal): Promise<StaffTokenState> =>
  apiRequest(`${DESK_API}/profile/token`, { signal });

/** Makes the token (replacing the old one, which stops): shown this once. */
export const makeStaffToken = (): Promise<{ token: string }> =>
  apiRequest(`${DESK_API}/profile/token`, { method: 'POST' });
