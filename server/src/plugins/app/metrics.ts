import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ACCESS_STATUSES } from '../../memberships/derive-membership.js';

/** Everything the app counts, for Prometheus (GET /metrics). */
export interface AppMetrics {
  registry: Registry;
  /** One per Stripe webhook delivery: its event type and what became of it. */
  webhookEvents: Counter<'type' | 'outcome'>;
  /** Calls to Stripe's API that failed (timeouts included), by what Cohort was doing. */
  stripeErrors: Counter<'operation' | 'type'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

export interface MetricsOptions {
  /** Log lines dropped because standard output would not take them (http/log-destination.ts). */
  droppedLogLines?: () => number;
}

/** Request duration buckets, in seconds: pages and the API answer in milliseconds; Stripe in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Prometheus metrics: requests by route and status (count and latency), webhook outcomes by event
 * type, Stripe API errors, active members, the database pool, and Node's own (memory, event-loop
 * lag, GC). Served at GET /metrics to a client sending `Authorization: Bearer <METRICS_TOKEN>`;
 * without METRICS_TOKEN it answers 404. nginx never passes /metrics on: Prometheus scrapes each
 * app server directly (inside the compose network or the cluster).
 */
export default fp(
  async function metrics(app: FastifyInstance, options: MetricsOptions) {
    // One registry per app, not prom-client's global one: tests build many apps in one process.
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const requests = new Counter({
      name: 'cohort_http_requests_total',
      help: 'HTTP requests answered, by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    });
    const durations = new Histogram({
      name: 'cohort_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
    const webhookEvents = new Counter({
      name: 'cohort_stripe_webhook_events_total',
      help: 'Stripe webhook deliveries by event type and outcome (applied, recorded, duplicate, invalid_signature, failed)',
      labelNames: ['type', 'outcome'] as const,
      registers: [registry],
    });
    const stripeErrors = new Counter({
      name: 'cohort_stripe_api_errors_total',
      help: 'Calls to the Stripe API that failed or timed out, by operation and error type',
      labelNames: ['operation', 'type'] as const,
      registers: [registry],
    });
    new Gauge({
      name: 'cohort_active_members',
      help: 'Users whose membership gives access now',
      registers: [registry],
      async collect() {
        const result = await app.db.pool.query<{ count: string }>(
          'SELECT count(*) FROM memberships WHERE status = ANY($1) AND "expiresAt" > now()',
          [[...ACCESS_STATUSES]],
        );
        this.set(Number(result.rows[0]?.count ?? 0));
      },
    });
    new Gauge({
      name: 'cohort_db_pool_connections',
      help: 'Database pool connections: total open, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const { pool } = app.db;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new Gauge({
      name: 'cohort_db_pool_max_connections',
      help: 'The most connections the pool opens (DATABASE_POOL_SIZE)',
      registers: [registry],
      collect() {
        this.set(app.db.pool.options.max ?? 10);
      },
    });
    // Newsletter mail is sent by `npm run newsletter:send`, another process: its deliveries are
    // read from their table (one row per issue and subscriber) when Prometheus scrapes.
    new Gauge({
      name: 'cohort_newsletter_deliveries',
      help: 'Newsletter deliveries recorded, by state (queued, sent, failed, skipped)',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        await setCountsByState(this, 'newsletter_deliveries');
      },
    });
    new Gauge({
      name: 'cohort_newsletter_subscribers',
      help: 'Newsletter addresses by state (pending, confirmed, unsubscribed, bouncing)',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        await setCountsByState(this, 'newsletter_subscribers');
      },
    });
    async function setCountsByState(
      gauge: Gauge<'state'>,
      table: 'newsletter_deliveries' | 'newsletter_subscribers',
    ) {
      const result = await app.db.pool.query<{ state: string; count: string }>(
        `SELECT state::text AS state, count(*) FROM ${table} GROUP BY state`,
      );
      gauge.reset();
      for (const row of result.rows) gauge.set({ state: row.state }, Number(row.count));
    }

    const { droppedLogLines } = options;
    if (droppedLogLines) {
      new Gauge({
        name: 'cohort_log_lines_dropped',
        help: 'Log lines dropped because standard output would not take them',
        registers: [registry],
        collect() {
          this.set(droppedLogLines());
        },
      });
    }

    app.decorate('metrics', { registry, webhookEvents, stripeErrors });

    app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
      // The route's pattern (`/api/checkout/:id`), never the address itself: a bounded set of
      // labels. Pages and unknown paths (the not-found handler) count as one route.
      const route = request.routeOptions.url ?? '(pages)';
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      requests.inc(labels);
      durations.observe(labels, reply.elapsedTime / 1000);
    });

    // METRICS_TOKEN's bearer token, held by the access hook (404 when metrics are off).
    app.get(
      '/metrics',
      { logLevel: 'warn', config: { access: 'metrics-token', changesState: false } },
      async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
    );
  },
  { name: 'metrics', dependencies: ['database'] },
);
