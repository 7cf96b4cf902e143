import type { DeskGift } from '../../../../contract/gifts';
import type { DeskOffer, OfferBody } from '../../../../contract/offers';
import type { PlanId } from '../../../../contract/plan-rules';
import type { DeskPlan, DeskPlans, PlanChange } from '../../../../contract/plans-api';
import type { DeskSeats } from '../../../../contract/seats';
import type {
  DeskAuditPage,
  DeskCompBody,
  DeskImport,
  DeskImports,
  DeskImportSource,
  DeskDashboard,
  DeskMail,
  DeskMember,
  DeskMemberFilter,
  DeskMembersPage,
  DeskStaff,
  DeskTopic,
} from '../../../../contract/desk-api';
import { DESK_API } from '../../../../contract/constants';
import type { PostListStatus } from '../../../../contract/post-bulk';
import type { PostJson, PostKind } from '../../../../contract/posts';
import { ApiError, apiRequest } from '../../lib/api-client';

/** The desk's API (contract/desk-api.ts). Every call answers 404 to anyone who is not staff. */

export interface MemberSearch {
  q: string;
  filter: DeskMemberFilter;
  /** A tier's slug, its members now; empty: any. */
  tier: string;
}

const searchParams = (search: MemberSearch, after?: string | null) => {
  const params = new URLSearchParams();
  if (search.q.trim()) params.set('q', search.q.trim());
  if (search.filter !== 'all') params.set('filter', search.filter);
  if (search.tier) params.set('tier', search.tier);
  if (after) params.set('after', after);
  const query = params.toString();
  return query ? `?${query}` : '';
};

const member = (id: string) => `${DESK_API}/members/${encodeURIComponent(id)}`;

export const fetchStaff = (): Promise<DeskStaff> => apiRequest(`${DESK_API}/me`);

export const fetchMembers = (
  search: MemberSearch,
  after: string | null,
  signal?: AbortSignal,
): Promise<DeskMembersPage> =>
  apiRequest(`${DESK_API}/members${searchParams(search, after)}`, { signal });

/** The CSV of the same search: a plain link, so the browser downloads it as it streams. */
export const membersCsvUrl = (search: MemberSearch) =>
  `${DESK_API}/exports/members${searchParams(search)}`;

/**
 * Every member and newsletter subscriber in the columns of Ghost's members CSV, for a move: it
 * takes no search (a plain link too).
 */
export const membersGhostCsvUrl = `${DESK_API}/exports/members?format=ghost`;

/** The newsletter's confirmed subscribers as CSV (a plain link too). */
export const newsletterCsvUrl = `${DESK_API}/exports/newsletter`;

export const fetchMember = (id: string, signal?: AbortSignal): Promise<DeskMember> =>
  apiRequest(member(id), { signal });

export const fetchDashboard = (signal?: AbortSignal): Promise<DeskDashboard> =>
  apiRequest(`${DESK_API}/dashboard`, { signal });

export const fetchAudit = (after: string | null, signal?: AbortSignal): Promise<DeskAuditPage> =>
  apiRequest(`${DESK_API}/audit${after ? `?after=${encodeURIComponent(after)}` : ''}`, {
    signal,
  });

/** The mail kept while it goes to the log, newest first (owners; 404 when mail goes to SMTP). */
export const fetchMailbox = (signal?: AbortSignal): Promise<{ mails: DeskMail[] }> =>
  apiRequest(`${DESK_API}/mailbox`, { signal });

type ActionResult = Promise<{ message: string }>;

export const rereadFromStripe = (id: string): ActionResult =>
  apiRequest(`${member(id)}/reread`, { method: 'POST' });

export const grantComp = (id: string, body: DeskCompBody): ActionResult =>
  apiRequest(`${member(id)}/comps`, { method: 'POST', body });

export const endComp = (id: string, compId: string): ActionResult =>
  apiRequest(`${member(id)}/comps/${encodeURIComponent(compId)}/end`, { method: 'POST' });

export const endSessions = (id: string): ActionResult =>
  apiRequest(`${member(id)}/sessions/end`, { method: 'POST' });

export const sendPasswordReset = (id: string): ActionResult =>
  apiRequest(`${member(id)}/password-reset`, { method: 'POST' });

/** The posts a search finds (contract/posts.ts), newest change first. */
export interface PostSearch {
  q: string;
  kind: PostKind | '';
  /** `deleted`: the Trash. */
  status: PostListStatus | '';
}

/** One page of the posts list; `nextCursor` asks for the next one (null: this is the last). */
export interface PostsPage {
  posts: PostJson[];
  nextCursor: string | null;
  /** How many posts the search finds in all. */
  total: number;
}

export const fetchPosts = (
  search: PostSearch,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<PostsPage> => {
  const params = new URLSearchParams();
  if (search.q.trim()) params.set('q', search.q.trim());
  if (search.kind) params.set('kind', search.kind);
  if (search.status) params.set('status', search.status);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return apiRequest(`${DESK_API}/posts${query ? `?${query}` : ''}`, { signal });
};

/** Publishes now, or takes off the site: naming the version the list showed. */
export const changePostStatus = (
  post: Pick<PostJson, 'id' | 'version'>,
  change: 'publish' | 'unpublish',
): Promise<{ post: PostJson }> =>
  apiRequest(`${DESK_API}/posts/${post.id}/${change}`, {
    method: 'POST',
    body: { version: post.version },
  });

export const fetchTopics = (signal?: AbortSignal): Promise<{ topics: DeskTopic[] }> =>
  apiRequest(`${DESK_API}/topics`, { signal });

/** Writes a topic's description; an empty one puts back the page's own sentence. */
export const describeTopic = (slug: string, description: string): Promise<{ topic: DeskTopic }> =>
  apiRequest(`${DESK_API}/topics/${encodeURIComponent(slug)}`, {
    method: 'PUT',
    body: { description },
  });

export const fetchPlans = (signal?: AbortSignal): Promise<DeskPlans> =>
  apiRequest(`${DESK_API}/plans`, { signal });

/** Mails, then moves, the members on another price of a plan to its price now. */
export const moveSubscribers = (
  id: 'monthly' | 'yearly',
): Promise<{ moved: number; renewsSoon: number; noAddress: number; notTold: number }> =>
  apiRequest(`${DESK_API}/plans/${id}/move-subscribers`, { method: 'POST' });

/** An owner's change to a plan: on or off sale, or its price from now on. */
export const changePlan = (id: PlanId, change: PlanChange): Promise<{ plan: DeskPlan }> =>
  apiRequest(`${DESK_API}/plans/${id}`, { method: 'PUT', body: change });

export const fetchOffers = (signal?: AbortSignal): Promise<{ offers: DeskOffer[] }> =>
  apiRequest(`${DESK_API}/offers`, { signal });

export const createOffer = (body: OfferBody): Promise<{ offer: DeskOffer }> =>
  apiRequest(`${DESK_API}/offers`, { method: 'POST', body });

export const endOffer = (id: string): Promise<{ offer: DeskOffer }> =>
  apiRequest(`${DESK_API}/offers/${id}/end`, { method: 'POST' });

/** The gifts paid for and not claimed yet, newest first. */
export const fetchGifts = (signal?: AbortSignal): Promise<{ gifts: DeskGift[] }> =>
  apiRequest(`${DESK_API}/gifts`, { signal });

/** What a gift's change answers: the gift now, and whether a new link was mailed just now. */
type GiftResult = Promise<{ gift: DeskGift; mailed: boolean }>;

/** Mails a gift's claim link again: a new link, the old one stops working. */
export const resendGift = (id: string): GiftResult =>
  apiRequest(`${DESK_API}/gifts/${encodeURIComponent(id)}/resend`, { method: 'POST' });

/** Corrects a gift's address; a link already mailed goes again, to it, at once. */
export const changeGiftAddress = (id: string, recipientEmail: string): GiftResult =>
  apiRequest(`${DESK_API}/gifts/${encodeURIComponent(id)}/address`, {
    method: 'POST',
    body: { recipientEmail },
  });

/** The solidarity seats: the pool, the monthly number, the requests and the fundings. */
export const fetchSeats = (signal?: AbortSignal): Promise<{ seats: DeskSeats }> =>
  apiRequest(`${DESK_API}/seats`, { signal });

/** Sets how many requests are granted on their own each month; a higher one may grant some now. */
export const setSeatsPerMonth = (autoGrantPerMonth: number): Promise<{ seats: DeskSeats }> =>
  apiRequest(`${DESK_API}/seats`, { method: 'PUT', body: { autoGrantPerMonth } });

/** Grants a waiting request a seat from the pool, or declines it. */
export const decideSeatRequest = (
  id: string,
  decision: 'grant' | 'decline',
): Promise<{ seats: DeskSeats }> =>
  apiRequest(`${DESK_API}/seats/requests/${encodeURIComponent(id)}/${decision}`, {
    method: 'POST',
  });

/** The imports started from the desk, newest first (the last 20). */
export const fetchImports = (signal?: AbortSignal): Promise<DeskImports> =>
  apiRequest(`${DESK_API}/imports`, { signal });

export const fetchImport = (id: string, signal?: AbortSignal): Promise<{ import: DeskImport }> =>
  apiRequest(`${DESK_API}/imports/${encodeURIComponent(id)}`, { signal });

/** Everything as a Ghost export: a plain link, so the browser downloads it as it streams. */
export const ghostExportUrl = `${DESK_API}/exports/ghost`;

/**
 * Uploads an export to import (multipart: `source`, `section`, then `file`), telling how much of it
 * has gone; answers the import's id once the server has the whole file. XMLHttpRequest, as fetch
 * cannot tell an upload's progress.
 */
export function uploadImport(
  upload: {
    source: DeskImportSource;
    section: string;
    file: File;
    /** Report what the import would do, writing nothing (`--dry-run`). */
    dryRun?: boolean;
    /** The `map` and `price` fields (`--map`, `--price`), each `<name>=<value>`. */
    mappings?: [string, string][];
  },
  onProgress: (sent: number, total: number) => void,
): Promise<{ import: { id: string } }> {
  const form = new FormData();
  form.append('source', upload.source);
  if (upload.section) form.append('section', upload.section);
  if (upload.dryRun) form.append('dryRun', 'true');
  for (const [name, value] of upload.mappings ?? []) form.append(name, value);
  // The file last: the server has read every field by the time it stores the file.
  form.append('file', upload.file);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${DESK_API}/imports`);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    request.onload = () => {
      const payload = request.response as {
        import?: { id: string };
        error?: { code?: string; message?: string };
      } | null;
      if (request.status === 202 && payload?.import) {
        resolve({ import: payload.import });
        return;
      }
      reject(
        new ApiError(
          request.status,
          payload?.error?.code ?? 'http_error',
          payload?.error?.message ?? `The upload failed (the server answered ${request.status}).`,
        ),
      );
    };
    // No answer at all (offline, the connection cut): describeError words it.
    request.onerror = () => reject(new TypeError('The upload could not reach the server.'));
    request.send(form);
  });
}
