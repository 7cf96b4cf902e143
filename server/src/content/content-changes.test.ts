import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDatabase } from '#test/with-site';
import { withTransaction } from '../db/transaction.js';
import { CONTENT_CHANNEL, contentChanged, readContentGeneration } from './content-changes.js';

describe('contentChanged', () => {
  const { db, testDatabase } = useDatabase();
  let listener: pg.Client | null = null;
  const heard: string[] = [];

  beforeAll(async () => {
    listener = db.connectListener();
    if (listener) {
      listener.on('notification', (notice) => {
        if (notice.channel === CONTENT_CHANNEL) heard.push(notice.payload ?? '');
      });
      await listener.connect();
      await listener.query(`LISTEN ${CONTENT_CHANNEL}`);
    }
  });
  afterAll(async () => {
    await listener?.end();
  });

  /** Waits until `count` notices arrived (or 2 s passed). */
  const noticesHeard = async (count: number) => {
    for (let tries = 0; tries < 100 && heard.length < count; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return heard;
  };

  it('starts a new site at generation 0', async () => {
    expect(await readContentGeneration(db.pool)).toBe(0);
  });

  it('bumps the generation in the transaction and notifies it once committed', async (context) => {
    const before = await readContentGeneration(db.pool);
    const generation = await withTransaction(db.pool, async (tx) => {
      const bumped = await contentChanged(tx);
      expect(await readContentGeneration(tx)).toBe(bumped);
      // Other connections see it only once committed (the embedded database has one connection).
      if (!testDatabase.embedded) expect(await readContentGeneration(db.pool)).toBe(before);
      return bumped;
    });
    expect(generation).toBe(before + 1);
    expect(await readContentGeneration(db.pool)).toBe(generation);
    if (!listener) context.skip('the embedded database cannot LISTEN');
    expect(await noticesHeard(1)).toEqual([String(generation)]);
  });

  it('bumps nothing and notifies no one when the transaction rolls back', async (context) => {
    const before = await readContentGeneration(db.pool);
    const noticesBefore = heard.length;
    await expect(
      withTransaction(db.pool, async (tx) => {
        await contentChanged(tx);
        throw new Error('the write failed after the change');
      }),
    ).rejects.toThrow('the write failed after the change');
    expect(await readContentGeneration(db.pool)).toBe(before);

    // Notices arrive in commit order: the next one heard is this commit's, with nothing before it.
    const committed = await withTransaction(db.pool, (tx) => contentChanged(tx));
    expect(committed).toBe(before + 1);
    if (!listener) context.skip('the embedded database cannot LISTEN');
    expect((await noticesHeard(noticesBefore + 1)).slice(noticesBefore)).toEqual([
      String(committed),
    ]);
  });

  it('gives changes made at once one generation each', async () => {
    const before = await readContentGeneration(db.pool);
    const generations = await Promise.all(
      Array.from({ length: 3 }, () => withTransaction(db.pool, (tx) => contentChanged(tx))),
    );
    expect([...generations].sort((a, b) => a - b)).toEqual([before + 1, before + 2, before + 3]);
    expect(await readContentGeneration(db.pool)).toBe(before + 3);
  });
});
