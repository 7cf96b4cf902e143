import { DIRECT_SOURCE } from '../../../contract/analytics.js';

/**
 * The raw views of days `$1` to `$2` (and of the posts `$3`, when not null), each with its
 * visitor's source for the day: the first source they came with (analytics_visitors; a view
 * reached from the site itself has none), else "Direct". A `WITH` item to put before a query of
 * `tagged`.
 */
export const TAGGED_EVENTS = `
  tagged AS (
    SELECT e."day", e."visitor", e."path", e."postId",
           coalesce(v."source", '${DIRECT_SOURCE}') AS "visitorSource"
      FROM "analytics_events" e LEFT JOIN "analytics_visitors" v USING ("day", "visitor")
     WHERE e."day" BETWEEN $1::date AND $2::date
       AND ($3::int[] IS NULL OR e."postId" = ANY($3::int[]))
  )`;
