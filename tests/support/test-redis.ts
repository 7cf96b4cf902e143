import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export interface TestRedis {
  /** REDIS_URL for the app: the run's Redis, with a key prefix of this test's own. */
  url: string;
  /** Deletes every key under this test's prefix. */
  drop(): Promise<void>;
}

/**
 * A namespace on the machine's Redis (`TEST_REDIS_URL`, else 127.0.0.1:6379) for one test file, so
 * parallel files and runs never count each other's requests. Fails with a clear message when no
 * Redis answers: CI starts one (.ci/run).
 */
export async function createTestRedis(): Promise<TestRedis> {
  const serverUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const admin = new Redis(serverUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
  admin.on('error', () => {}); // connect() below reports it
  try {
    await admin.connect();
  } catch (error) {
    admin.disconnect();
    throw new Error(
      `These tests need Redis at ${serverUrl} (start redis-server, or set TEST_REDIS_URL): ${String(error)}`,
      { cause: error },
    );
  }
  const prefix = `cohort-test-${randomBytes(6).toString('hex')}:`;
  const url = new URL(serverUrl);
  url.searchParams.set('keyPrefix', prefix);
  return {
    url: url.toString(),
    async drop() {
      const keys: string[] = [];
      for await (const batch of admin.scanStream({ match: `${prefix}*`, count: 500 })) {
        keys.push(...(batch as string[]));
      }
      if (keys.length > 0) await admin.del(...keys);
      await admin.quit();
    },
  };
}
