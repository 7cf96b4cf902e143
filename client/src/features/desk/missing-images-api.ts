import type { DeskImageRetry, DeskMissingImages } from '../../../../contract/desk-api';
import { DESK_API } from '../../../../contract/constants';
import { apiRequest } from '../../lib/api-client';

/** The images posts still show from their old addresses, counted from the posts. */
export const fetchMissingImages = (signal?: AbortSignal): Promise<DeskMissingImages> =>
  apiRequest(`${DESK_API}/imports/missing-images`, { signal });

/** Each missing image fetched again, stored here, and its posts pointed at it. */
export const retryMissingImages = (): Promise<DeskImageRetry> =>
  apiRequest(`${DESK_API}/imports/missing-images/retry`, { method: 'POST' });
