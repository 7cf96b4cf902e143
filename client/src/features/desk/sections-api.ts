import { DESK_API } from '../../../../contract/constants';
import type {
  LinkChange,
  LinkCreate,
  SectionChange,
  SectionCreate,
} from '../../../../contract/sections-api';
import type { SiteLink, SiteNavigation, SiteSection } from '../../../../contract/sections';
import { apiRequest } from '../../lib/api-client';

// The desk's sections and navigation links (server/src/routes/desk/sections.ts).

export const fetchSections = (signal?: AbortSignal): Promise<SiteNavigation> =>
  apiRequest(`${DESK_API}/sections`, { signal });

export const createSection = (body: SectionCreate): Promise<{ section: SiteSection }> =>
  apiRequest(`${DESK_API}/sections`, { method: 'POST', body });

export const changeSection = (id: number, body: SectionChange): Promise<{ section: SiteSection }> =>
  apiRequest(`${DESK_API}/sections/${id}`, { method: 'PATCH', body });

export const deleteSection = (id: number): Promise<SiteNavigation> =>
  apiRequest(`${DESK_API}/sections/${id}`, { method: 'DELETE' });

export const createLink = (body: LinkCreate): Promise<{ link: SiteLink }> =>
  apiRequest(`${DESK_API}/links`, { method: 'POST', body });

export const changeLink = (id: number, body: LinkChange): Promise<{ link: SiteLink }> =>
  apiRequest(`${DESK_API}/links/${id}`, { method: 'PATCH', body });

export const deleteLink = (id: number): Promise<SiteNavigation> =>
  apiRequest(`${DESK_API}/links/${id}`, { method: 'DELETE' });
