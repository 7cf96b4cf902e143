import type pg from 'pg';
import { MAX_TOPIC_DESCRIPTION } from '../../../contract/topics.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import { withTransaction } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { contentChanged } from './content-changes.js';
import { findNulCharacter, NUL_MESSAGE } from './find-nul.js';

/** Every description a publisher wrote, by topic slug. */
export async function readTopicDescriptions(
  pool: Pick<pg.Pool, 'query'>,
): Promise<Map<string, string>> {
  const { rows } = await pool.query<{ slug: string; description: string }>(
    `SELECT "slug", "description" FROM "topics"`,
  );
  return new Map(rows.map((row) => [row.slug, row.description]));
}

/** A 400 naming what is wrong with a topic's description, in one line. */
export function refuseTopic(problems: { field: string; message: string }[]): DomainError {
  const text = problems.map(({ field, message }) => `${field}: ${message}`).join('; ');
  return new DomainError(400, 'invalid_topic', `${text}.`);
}

/**
 * Writes a topic's description (an empty one removes it: the page says what it lists again), with
 * its audit entry, and says the content changed: answers the generation that made. A description
 * too long or holding NUL changes nothing: 400 with what is wrong.
 */
export async function describeTopic(
  pool: pg.Pool,
  actor: Pick<Staff, 'userId' | 'email'>,
  slug: string,
  description: string,
): Promise<number> {
  if (findNulCharacter(description) !== null) {
    throw refuseTopic([{ field: 'description', message: NUL_MESSAGE }]);
  }
  const text = description.replace(/\s+/g, ' ').trim();
  if (text.length > MAX_TOPIC_DESCRIPTION) {
    throw refuseTopic([
      { field: 'description', message: `must be at most ${MAX_TOPIC_DESCRIPTION} characters` },
    ]);
  }
  return withTransaction(pool, async (tx) => {
    const before = await tx.query<{ description: string }>(
      `SELECT "description" FROM "topics" WHERE "slug" = $1 FOR UPDATE`,
      [slug],
    );
    if (text === '') {
      await tx.query(`DELETE FROM "topics" WHERE "slug" = $1`, [slug]);
    } else {
      await tx.query(
        `INSERT INTO "topics" ("slug", "description", "updatedAt", "updatedBy")
          VALUES ($1, $2, now(), $3)
          ON CONFLICT ("slug") DO UPDATE
            SET "description" = $2, "updatedAt" = now(), "updatedBy" = $3`,
        [slug, text, actor.userId],
      );
    }
    await writeAudit(tx, actor, {
      action: 'topic_describe',
      targetUserId: null,
      before: { slug, description: before.rows[0]?.description ?? null },
      after: { slug, description: text || null },
    });
    return contentChanged(tx);
  });
}
