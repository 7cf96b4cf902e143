import { newestFirst } from '../e2e/site-content.js';
import { FakeStripe } from './fake-stripe.js';
import { startNginxStack, type NginxStack } from './nginx.js';
import { openPostgresDatabase, type PostgresDatabase } from './postgres-cluster.js';
import { createTestRedis } from './test-redis.js';

/** The production shape the benchmarks measure: nginx, two app servers, PostgreSQL, Redis. */
export interface BenchStack {
  /** nginx's address. */
  url: string;
  database: PostgresDatabase;
  stripe: FakeStripe;
  nginx: NginxStack;
  stop(): Promise<void>;
}

/**
 * Starts the shipped nginx.conf in front of two built app servers sharing one PostgreSQL database
 * and the local Redis (rate-limit counters), with payments pointed at a FakeStripe.
 */
export async function startBenchStack(
  options: { appEnv?: Record<string, string>; edgeRate?: string } = {},
): Promise<BenchStack> {
  const database = await openPostgresDatabase();
  const stripe = await new FakeStripe().start();
  const redis = await createTestRedis().catch(async (error: unknown) => {
    await stripe.stop();
    await database.drop();
    throw error;
  });
  const release = async () => {
    await stripe.stop();
    await redis.drop();
    await database.drop();
  };
  let nginx: NginxStack;
  try {
    nginx = await startNginxStack({
      env: {
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        ...stripe.env(),
        ...options.appEnv,
      },
      edgeRate: options.edgeRate,
      // As the official nginx image's own nginx.conf has them.
      workerProcesses: 'auto',
      workerConnections: 1024,
    });
  } catch (error) {
    await release();
    throw error;
  }
  return {
    url: nginx.url,
    database,
    stripe,
    nginx,
    async stop() {
      await nginx.stop();
      await release();
    },
  };
}

/** The newest Health article's page: the article the benchmarks load. */
export function articlePath(): string {
  const article = newestFirst('articles', 'Health')[0];
  if (!article) throw new Error('No Health article under content/articles');
  return `/health/${article.slug}`;
}
