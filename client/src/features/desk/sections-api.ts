import { DESK_API } from '../../../../contract/constants';
import type {
  DeskSections,
  LinkChange,
  LinkCreate,
  SectionChange,
  SectionCreate,
  SectionDelete,
} from '../../../../contract/sections-api';
import type { SiteLink, SiteNavigation, SiteSection } from '../../../../contract/sections';
import { apiRequest } from '../../lib/api-client';

// The desk's sections and navigation links (server/src/routes/desk/sections.ts).

/** The sections and links, and how many posts each section lists. */
export const fetchSections = (signal?: AbortSignal): Promise<DeskSections> =>
  apiRequest(`${DESK_API}/sections`, { signal });

export const createSection = (body: SectionCreate): Promise<{ section: SiteSection }> =>
  apiRequest(`${DESK_API}/sections`, { method: 'POST', body });

export const changeSection = (id: number, body: SectionChange): Promise<{ section: SiteSection }> =>
  apiRequest(`${DESK_API}/sections/${id}`, { method: 'PATCH', body });

/** Deletes a section; one with posts says where they go (`moveTo` a section, or the Trash). */
export const deleteSection = (id: number, choice?: SectionDelete): Promise<DeskSections> =>
  apiRequest(`${DESK_API}/sections/${id}`, { method: 'DELETE', ...(choice && { body: choice }) });

export const createLink = (body: LinkCreate): Promise<{ link: SiteLink }> =>
  apiRequest(`${DESK_API}/links`, { method: 'POST', body });

export const changeLink = (id: number, body: LinkChange): Promise<{ link: SiteLink }> =>
  apiRequest(`${DESK_API}/links/${id}`, { method: 'PATCH', body });

export const deleteLink = (id: number): Promise<SiteNavigation> =>
  apiRequest(`${DESK_API}/links/${id}`, { method: 'DELETE' });
