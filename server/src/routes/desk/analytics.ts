import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AnalyticsRangeQuerySchema,
  DeskAnalyticsSchema,
  DeskPostAnalyticsSchema,
  MAX_ANALYTICS_DAYS,
  type AnalyticsRangeQuery,
} from '../../../../contract/analytics.js';
import { readPostAddresses } from '../../analytics/counted-pages.js';
import {
  analyticsShownTo,
  readAnalytics,
  readPostAnalytics,
} from '../../analytics/read-analytics.js';
import { HttpError } from '../../http/errors.js';
import { deskStaff } from './desk-staff.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A range of real days, `from` not after `to`, at most MAX_ANALYTICS_DAYS: else a 400. */
function requireRange({ from, to }: AnalyticsRangeQuery): { from: string; to: string } {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  for (const [name, value, at] of [
    ['from', from, start],
    ['to', to, end],
  ] as const) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      throw new HttpError(400, 'invalid_range', `${name} is a day written YYYY-MM-DD.`);
    }
    if (Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== value) {
      throw new HttpError(400, 'invalid_range', `${name} is not a day: ${value}.`);
    }
  }
  if (start > end) throw new HttpError(400, 'invalid_range', 'from is after to.');
  if ((end - start) / DAY_MS + 1 > MAX_ANALYTICS_DAYS) {
    throw new HttpError(
      400,
      'invalid_range',
      `A range is at most ${MAX_ANALYTICS_DAYS} days long.`,
    );
  }
  return { from, to };
}

/**
 * The desk's analytics (docs/analytics.md#the-desk): the site's figures over a range of days, and
 * one post's for its editor page. Writers see their own posts' views and visitors, no money.
 */
const deskAnalyticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/analytics',
    {
      schema: { querystring: AnalyticsRangeQuerySchema, response: { 200: DeskAnalyticsSchema } },
      config: { access: 'staff' },
    },
    async (request) => {
      const range = requireRange(request.query);
      await app.analytics.flush();
      return readAnalytics(app.db.pool, {
        ...range,
        ...(await analyticsShownTo(app.db.pool, deskStaff(request))),
      });
    },
  );

  app.get(
    '/analytics/posts/:postId',
    {
      schema: {
        params: Type.Object({ postId: Type.String({ pattern: '^[0-9]{1,9}$' }) }),
        querystring: AnalyticsRangeQuerySchema,
        response: { 200: DeskPostAnalyticsSchema },
      },
      config: { access: 'staff' },
    },
    async (request) => {
      const range = requireRange(request.query);
      const postId = Number(request.params.postId);
      const scope = await analyticsShownTo(app.db.pool, deskStaff(request));
      const [post] =
        scope.postIds === null || scope.postIds.includes(postId)
          ? await readPostAddresses(app.db.pool, { published: false, ids: [postId] })
          : [];
      if (!post) throw new HttpError(404, 'not_found', 'There is no such post.');
      await app.analytics.flush();
      return readPostAnalytics(app.db.pool, post, { ...range, money: scope.money });
    },
  );
};

export default deskAnalyticsRoutes;
