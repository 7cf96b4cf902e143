import { DESK_API } from '../../../../contract/constants';
import type { BulkBody, BulkResult } from '../../../../contract/post-bulk';
import { apiRequest } from '../../lib/api-client';

// Many posts at once (server/src/routes/desk/posts.ts, `POST /api/desk/posts/bulk`).

/** Takes the action on each post named or found: how many took it, and why the others did not. */
export const actOnPosts = (body: BulkBody): Promise<BulkResult> =>
  apiRequest(`${DESK_API}/posts/bulk`, { method: 'POST', body });
