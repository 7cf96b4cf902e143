import { DESK_API } from '../../../../../contract/constants';
import type { NewsletterSendStatus } from '../../../../../contract/desk-api';
import type { UploadedImage } from '../../../../../contract/images';
import type { MediaKind } from '../../../../../contract/media';
import type { NewsletterAudience } from '../../../../../contract/newsletters';
import type { PublishWarning } from '../../../../../contract/post-editor-fields';
import type { PostJson, PostKind } from '../../../../../contract/posts';
import { ApiError, apiRequest } from '../../../lib/api-client';

/** A save's outcome: saved, or refused because someone else saved first (their version). */
export type SaveResult = { ok: true; post: PostJson } | { ok: false; theirs: PostJson };

const posts = `${DESK_API}/posts`;

export const fetchPost = (id: number): Promise<{ post: PostJson }> => apiRequest(`${posts}/${id}`);

export const createPost = (kind: PostKind, changes: Record<string, unknown>) =>
  apiRequest<{ post: PostJson }>(posts, { method: 'POST', body: { kind, ...changes } });

/**
 * Saves changes over the version the writer started from. A 409 is not an error here: it is the
 * other staff member's save, handed back for the writer to choose. `keepalive` lets a save made as
 * the page closes finish after it.
 */
export async function savePost(
  id: number,
  version: number,
  changes: Record<string, unknown>,
  options: { keepalive?: boolean } = {},
): Promise<SaveResult> {
  const response = await fetch(`${posts}/${id}`, {
    method: 'PATCH',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...changes, version }),
    keepalive: options.keepalive === true,
  });
  const payload = (await response.json().catch(() => null)) as {
    post?: PostJson;
    error?: { code?: string; message?: string };
  } | null;
  if (response.ok && payload?.post) return { ok: true, post: payload.post };
  if (response.status === 409 && payload?.post) return { ok: false, theirs: payload.post };
  throw new ApiError(
    response.status,
    payload?.error?.code ?? 'http_error',
    payload?.error?.message ?? `The server answered ${response.status}.`,
  );
}

export const publishPost = (post: Pick<PostJson, 'id' | 'version'>, at?: string) =>
  apiRequest<{ post: PostJson }>(`${posts}/${post.id}/publish`, {
    method: 'POST',
    body: { version: post.version, ...(at && { at }) },
  });

export const unpublishPost = (post: Pick<PostJson, 'id' | 'version'>) =>
  apiRequest<{ post: PostJson }>(`${posts}/${post.id}/unpublish`, {
    method: 'POST',
    body: { version: post.version },
  });

export const submitPost = (post: Pick<PostJson, 'id' | 'version'>) =>
  apiRequest<{ post: PostJson }>(`${posts}/${post.id}/submit`, {
    method: 'POST',
    body: { version: post.version },
  });

export interface Revision {
  version: number;
  savedAt: string;
  savedByEmail: string | null;
  title: string;
  status: string;
}

export const fetchRevisions = (id: number) =>
  apiRequest<{ revisions: Revision[] }>(`${posts}/${id}/revisions`);

/** An earlier version whole (GET …/revisions/:version), to compare with the post now. */
export interface RevisionDetail {
  version: number;
  savedAt: string;
  savedBy: string | null;
  status: string;
  post: PostJson;
}

export const fetchRevision = (id: number, version: number) =>
  apiRequest<{ revision: RevisionDetail }>(`${posts}/${id}/revisions/${version}`);

export const restoreRevision = (post: Pick<PostJson, 'id' | 'version'>, revision: number) =>
  apiRequest<{ post: PostJson }>(`${posts}/${post.id}/revisions/${revision}/restore`, {
    method: 'POST',
    body: { version: post.version },
  });

/** POST /api/desk/uploads's image: its id and widest size, and that copy's address. */
export type UploadedImageJson = UploadedImage & { url: string };

/** What POST /api/desk/uploads made of any file: its address, and a sound or video's length. */
export interface UploadedFileJson {
  url: string;
  kind: 'image' | MediaKind;
  /** Whole seconds; null for an image, or a file whose length could not be read. */
  duration: number | null;
}

interface UploadAnswer {
  url?: string;
  kind?: UploadedFileJson['kind'];
  duration?: number | null;
  image?: UploadedImageJson;
  error?: { code?: string; message?: string };
}

/** One file to POST /api/desk/uploads (multipart, field `file`): the server's answer. */
async function sendUpload(file: File): Promise<UploadAnswer> {
  const form = new FormData();
  form.append('file', file);
  const response = await fetch(`${DESK_API}/uploads`, {
    method: 'POST',
    credentials: 'same-origin',
    body: form,
  });
  const payload = (await response.json().catch(() => null)) as UploadAnswer | null;
  if (response.ok && payload) return payload;
  throw new ApiError(
    response.status,
    payload?.error?.code ?? 'http_error',
    payload?.error?.message ?? `The upload failed (${response.status}).`,
  );
}

/** One image (a feature image, a profile picture, a logo). */
export async function uploadImage(file: File): Promise<UploadedImageJson> {
  const { image } = await sendUpload(file);
  if (image) return image;
  throw new ApiError(415, 'not_an_image', `${file.name} is not an image.`);
}

/** One image, sound or video for a post's body. */
export async function uploadFile(file: File): Promise<UploadedFileJson> {
  const answer = await sendUpload(file);
  if (answer.url && answer.kind) {
    return { url: answer.url, kind: answer.kind, duration: answer.duration ?? null };
  }
  if (answer.image) return { url: answer.image.url, kind: 'image', duration: null };
  throw new ApiError(500, 'http_error', 'The server did not say where the file went.');
}

export const previewUrl = (id: number) => `${posts}/${id}/preview`;

/** What publishing would still refuse of the post with these changes, by the editor's labels. */
export const fetchPreviewWarnings = (id: number, changes: Record<string, unknown>) =>
  apiRequest<{ warnings: PublishWarning[] }>(`${posts}/${id}/preview/warnings`, {
    method: 'POST',
    body: changes,
  });

export type { NewsletterSendStatus as NewsletterStatus };

/**
 * Who the issue would reach: for `audience` (its tiers comma-separated in the query), else for
 * the audience a send would take by itself (the one it was sent to, else the issue's own).
 */
export function fetchNewsletterStatus(id: number, audience?: NewsletterAudience) {
  const query = audience
    ? `?${new URLSearchParams({
        audience: audience.audience,
        ...(audience.audience === 'tiers' && { tiers: audience.tiers.join(',') }),
      }).toString()}`
    : '';
  return apiRequest<{ status: NewsletterSendStatus }>(`${posts}/${id}/newsletter${query}`);
}

/** Sends the issue to the audience, naming how many the desk showed for it. */
export const sendNewsletter = (id: number, recipients: number, audience: NewsletterAudience) =>
  apiRequest<{ status: NewsletterSendStatus }>(`${posts}/${id}/newsletter/send`, {
    method: 'POST',
    body: {
      recipients,
      audience: audience.audience,
      ...(audience.audience === 'tiers' && { tiers: audience.tiers }),
    },
  });
