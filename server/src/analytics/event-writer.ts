import type pg from 'pg';
import { utcDay } from './visitors.js';

export interface CountedView {
  at: Date;
  visitor: Buffer;
  path: string;
  postId: number | null;
  /** Null: reached from the site itself. */
  source: string | null;
}

export interface EventWriter {
  /** Keeps a view to be written with the next batch. */
  add(view: CountedView): void;
  /** Writes what is waiting now (what a reader of today's events awaits first). */
  flush(): Promise<void>;
  /** Writes what is waiting and stops the timer: the app's close. */
  close(): Promise<void>;
}

export interface EventWriterOptions {
  /** How long a view waits at most before it is written. */
  flushMs: number;
  /** A batch this long is written at once. */
  batchSize: number;
  log(error: unknown): void;
}

/**
 * The views of one page kept from one visitor in a day (docs/analytics.md#limits): a reader who
 * reloads a post or comes back to it a few times is counted each time, and one who sends the same
 * view a thousand times adds no more than this.
 */
export const VIEWS_PER_VISITOR_PAGE_DAY = 10;

/**
 * One batch, in one statement: each (day, visitor, page)'s views are added to its tally in
 * `analytics_visitor_pages`, and only those that keep the tally within $7 go into
 * `analytics_events`. The tally's row is locked by its upsert until the statement commits, so
 * two servers writing the same visitor's views at once take turns and keep the cap between them;
 * a tally at the cap is not raised any more (not returned either: none of its views are kept).
 * Tallies are upserted in key order, so two batches never wait on each other's rows in a circle.
 */
const WRITE_BATCH = `
  WITH batch AS (
    SELECT *, row_number() OVER page AS "nth", count(*) OVER page AS "pageViews"
      FROM unnest($1::timestamptz[], $2::date[], $3::bytea[], $4::text[], $5::int[], $6::text[])
           WITH ORDINALITY AS b("at", "day", "visitor", "path", "postId", "source", "position")
    WINDOW page AS (PARTITION BY "day", "visitor", "path" ORDER BY "at", "position"
                    ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
  ),
  tallies AS (
    INSERT INTO "analytics_visitor_pages" AS t ("day", "visitor", "path", "views")
    SELECT "day", "visitor", "path", count(*) FROM batch
     GROUP BY "day", "visitor", "path" ORDER BY "day", "visitor", "path"
    ON CONFLICT ("day", "visitor", "path") DO UPDATE SET "views" = t."views" + excluded."views"
     WHERE t."views" < $7
    RETURNING "day", "visitor", "path", "views"
  ),
  views AS (
    INSERT INTO "analytics_events" ("at", "day", "visitor", "path", "postId", "source")
    SELECT b."at", b."day", b."visitor", b."path", b."postId", b."source"
      FROM batch b JOIN tallies t USING ("day", "visitor", "path")
     WHERE t."views" - b."pageViews" + b."nth" <= $7
     ORDER BY b."position"
  )
  INSERT INTO "analytics_visitors" ("day", "visitor", "source")
  SELECT DISTINCT ON ("day", "visitor") "day", "visitor", "source" FROM batch
   WHERE "source" IS NOT NULL ORDER BY "day", "visitor", "at"
  ON CONFLICT ("day", "visitor") DO NOTHING`;

/**
 * Page views written in batches (docs/analytics.md#scale): each view waits in memory at most
 * `flushMs`, then every waiting view goes into `analytics_events` in one INSERT of arrays, which
 * also notes each new visitor's first source of the day (`analytics_visitors`) and keeps no more
 * than VIEWS_PER_VISITOR_PAGE_DAY of a visitor's views of a page a day, across batches and
 * servers. A batch that cannot be written (the database away) is logged and dropped: analytics
 * never hold up or fail a page. What waits is written when the app closes.
 */
export function createEventWriter(pool: pg.Pool, options: EventWriterOptions): EventWriter {
  let waiting: CountedView[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  function write(batch: CountedView[]): Promise<void> {
    writing = writing.then(() =>
      pool
        .query(WRITE_BATCH, [
          batch.map((view) => view.at),
          batch.map((view) => utcDay(view.at)),
          batch.map((view) => view.visitor),
          batch.map((view) => view.path),
          batch.map((view) => view.postId),
          batch.map((view) => view.source),
          VIEWS_PER_VISITOR_PAGE_DAY,
        ])
        .then(
          () => undefined,
          (error: unknown) => options.log(error),
        ),
    );
    return writing;
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (waiting.length === 0) return writing;
    const batch = waiting;
    waiting = [];
    return write(batch);
  }

  return {
    add(view) {
      waiting.push(view);
      if (waiting.length >= options.batchSize) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), options.flushMs);
        timer.unref();
      }
    },
    flush,
    close: flush,
  };
}
