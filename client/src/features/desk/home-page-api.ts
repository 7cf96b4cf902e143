import { DESK_API } from '../../../../contract/constants';
import type { HomeSettings, SiteSettings } from '../../../../contract/site-settings';
import type { PostJson } from '../../../../contract/posts';
import { apiRequest } from '../../lib/api-client';

// The desk's Home page (server/src/routes/desk/settings.ts): the `home` part of the settings.

export const fetchHomeSettings = (signal?: AbortSignal): Promise<HomeSettings> =>
  apiRequest<{ settings: SiteSettings }>(`${DESK_API}/settings`, { signal }).then(
    ({ settings }) => settings.home,
  );

/** Replaces the home page's settings whole; answers them as saved. */
export const saveHomeSettings = (home: HomeSettings): Promise<HomeSettings> =>
  apiRequest<{ settings: SiteSettings }>(`${DESK_API}/settings`, {
    method: 'PATCH',
    body: { home },
  }).then(({ settings }) => settings.home);

/** A pinned post's title and address, for the list of pinned posts. */
export const fetchPinnedPost = (id: number, signal?: AbortSignal): Promise<PostJson> =>
  apiRequest<{ post: PostJson }>(`${DESK_API}/posts/${id}`, { signal }).then(({ post }) => post);
