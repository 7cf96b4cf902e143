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
 * Page views written in batches (docs/analytics.md#scale): each view waits in memory at most
 * `flushMs`, then every waiting view goes into `analytics_events` in one INSERT of arrays, which
 * also notes each new visitor's first source of the day (`analytics_visitors`). A batch
 * that cannot be written (the database away) is logged and dropped: analytics never hold up or
 * fail a page. What waits is written when the app closes.
 */
export function createEventWriter(pool: pg.Pool, options: EventWriterOptions): EventWriter {
  let waiting: CountedView[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  function write(batch: CountedView[]): Promise<void> {
    writing = writing.then(() =>
      pool
        .query(
          `WITH batch AS (
             SELECT * FROM unnest($1::timestamptz[], $2::date[], $3::bytea[], $4::text[],
                                  $5::int[], $6::text[])
                        AS b("at", "day", "visitor", "path", "postId", "source")
           ),
           views AS (
             INSERT INTO "analytics_events" ("at", "day", "visitor", "path", "postId", "source")
             SELECT * FROM batch
           )
           INSERT INTO "analytics_visitors" ("day", "visitor", "source")
           SELECT DISTINCT ON ("day", "visitor") "day", "visitor", "source" FROM batch
            WHERE "source" IS NOT NULL ORDER BY "day", "visitor", "at"
           ON CONFLICT ("day", "visitor") DO NOTHING`,
          [
            batch.map((view) => view.at),
            batch.map((view) => utcDay(view.at)),
            batch.map((view) => view.visitor),
            batch.map((view) => view.path),
            batch.map((view) => view.postId),
            batch.map((view) => view.source),
          ],
        )
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
