import { DESK_API } from '../../../../contract/constants';
import type { SiteSettings } from '../../../../contract/site-settings';
import { ApiError, apiRequest } from '../../lib/api-client';

// The desk's Settings page (server/src/routes/desk/settings.ts): the publication's identity and
// look. Its home page is the Home page's (home-page-api.ts): this page never sends `home`.

export type IdentitySettings = Omit<SiteSettings, 'home'>;

export const fetchSettings = (signal?: AbortSignal): Promise<SiteSettings> =>
  apiRequest<{ settings: SiteSettings }>(`${DESK_API}/settings`, { signal }).then(
    ({ settings }) => settings,
  );

/** Changes every setting but the home page's; answers them all as saved. */
export const saveSettings = (settings: IdentitySettings): Promise<SiteSettings> =>
  apiRequest<{ settings: SiteSettings }>(`${DESK_API}/settings`, {
    method: 'PATCH',
    body: settings,
  }).then(({ settings: saved }) => saved);

/**
 * A refused change's problems by field (`title`, `socialLinks.0.url`), from its 400's message
 * ("Invalid settings: title must be …; socialLinks.0.url must be …."); `''` holds any other.
 */
export function fieldProblems(error: unknown): Map<string, string> {
  const problems = new Map<string, string>();
  if (!(error instanceof ApiError) || error.status !== 400) return problems;
  const text = error.message.replace(/^Invalid settings:\s*/, '').replace(/\.$/, '');
  for (const part of text.split('; ')) {
    const [field = '', ...rest] = part.split(' ');
    const known = /^[a-zA-Z]+(\.\d+\.[a-z]+)?$/.test(field) && rest.length > 0;
    const key = known ? field : '';
    const message = known ? rest.join(' ') : part;
    const said = problems.get(key);
    problems.set(key, said ? `${said}; ${message}` : message);
  }
  return problems;
}
