import {
  DESK_ANALYTICS_PATH,
  deskPostAnalyticsPath,
  type DeskAnalytics,
  type DeskPostAnalytics,
} from '../../../../contract/analytics';
import { apiRequest } from '../../lib/api-client';

/** The ranges the Analytics page offers, in days (`?range=30` in its address). */
export const ANALYTICS_RANGES = [7, 30, 90, 365] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

/** The last `days` days in UTC, today included: the `from` and `to` the desk's API reads. */
export function rangeDates(days: number, today = new Date()): { from: string; to: string } {
  const to = today.toISOString().slice(0, 10);
  const from = new Date(Date.parse(to) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

const query = (days: number) => {
  const { from, to } = rangeDates(days);
  return `?from=${from}&to=${to}`;
};

/** GET /api/desk/analytics over the last `days` days. */
export const fetchAnalytics = (days: number, signal?: AbortSignal): Promise<DeskAnalytics> =>
  apiRequest(`${DESK_ANALYTICS_PATH}${query(days)}`, { signal });

/** GET /api/desk/analytics/posts/:id over the last `days` days. */
export const fetchPostAnalytics = (
  postId: number,
  days: number,
  signal?: AbortSignal,
): Promise<DeskPostAnalytics> =>
  apiRequest(`${deskPostAnalyticsPath(postId)}${query(days)}`, { signal });
