import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe } from '../support/fake-stripe.js';
import { freePort, stopProcess, waitUntilReady } from '../support/site.js';
import { TEST_SESSION_SECRET } from '../support/test-app.js';
import { createMigratedTestDatabase, type TestDatabase } from '../support/test-database.js';
import { createTestRedis, type TestRedis } from '../support/test-redis.js';

/**
 * The shipped nginx.conf, run by the real nginx in front of two real app processes (the built
 * server, `node dist/server/server.js`) that share one PostgreSQL database and the local Redis:
 * what `docker compose up --scale app=2` runs, without Docker.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const clientDir = join(root, 'dist/client');
const SESSION_RATE_LIMIT = 5;

const nginxBinary = findNginx();
const title = nginxBinary
  ? 'nginx.conf in front of two app servers'
  : 'nginx.conf in front of two app servers (SKIPPED: no nginx binary; install Debian’s nginx or set NGINX_PATH)';

describe.skipIf(!nginxBinary)(title, () => {
  let work: string;
  let database: TestDatabase;
  let redis: TestRedis;
  const stripe = new FakeStripe();
  const apps: AppProcess[] = [];
  let nginx: ChildProcess | undefined;
  let site: string;

  beforeAll(async () => {
    for (const built of ['dist/client/index.html', 'dist/server/server.js']) {
      if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run npm run build`);
    }
    work = await mkdtemp(join(tmpdir(), 'cohort-nginx-'));
    // nginx's workers drop root privileges: they must be able to reach their temp folders.
    await chmod(work, 0o755);
    [database, redis] = await Promise.all([createMigratedTestDatabase(), createTestRedis()]);
    await stripe.start();

    const nginxPort = await freePort();
    site = `http://127.0.0.1:${nginxPort}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      SITE_URL: site,
      SESSION_RATE_LIMIT: String(SESSION_RATE_LIMIT),
      ...stripe.env(),
    };
    apps.push(...(await Promise.all([startApp(env, work), startApp(env, work)])));

    const config = await writeNginxConfig({
      work,
      listen: `127.0.0.1:${nginxPort}`,
      appPorts: apps.map((app) => app.port),
    });
    nginx = await startNginx(nginxBinary ?? 'nginx', work, config, site);
  });

  afterAll(async () => {
    if (nginx) await stopProcess(nginx);
    await Promise.all(apps.map((app) => stopProcess(app.child)));
    await stripe.stop();
    await redis?.drop();
    await database?.drop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Which app server (by port) answered each proxied request, from nginx's access log. */
  async function upstreamsFor(path: string): Promise<number[]> {
    const log = await readFile(join(work, 'access.log'), 'utf8');
    return log
      .split('\n')
      .map((line) => line.split(' '))
      .filter(([, uri]) => uri === path)
      .map(([, , upstream]) => Number(upstream?.split(':').pop()));
  }
  const appPorts = () => apps.map((app) => app.port).sort();
  const unique = (ports: number[]) => [...new Set(ports)].sort();

  it('serves index.html gzipped and revalidated on every load', async () => {
    const response = await fetch(`${site}/`, { headers: { 'accept-encoding': 'gzip' } });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('etag')).toBeTruthy();
    expect(await response.text()).toBe(readFileSync(join(clientDir, 'index.html'), 'utf8'));
  });

  it('serves the hashed assets gzipped and cached for a year', async () => {
    const html = readFileSync(join(clientDir, 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
      (match) => match[1] ?? '',
    );
    expect(assets.length).toBeGreaterThanOrEqual(2);

    for (const asset of assets) {
      const response = await fetch(`${site}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-encoding')).toBe('gzip');
      expect(response.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(await response.text()).toBe(readFileSync(join(clientDir, asset), 'utf8'));
    }

    const plain = await fetch(`${site}${assets[0]}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();

    const missing = await fetch(`${site}/assets/index-00000000.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBeNull();
  });

  it('answers client routes with index.html, and missing files and API paths with a 404', async () => {
    const index = readFileSync(join(clientDir, 'index.html'), 'utf8');
    for (const path of ['/early-access', '/health/some-article', '/pk']) {
      const response = await fetch(`${site}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      expect(await response.text(), path).toBe(index);
    }

    expect((await fetch(`${site}/no-such-file.png`)).status).toBe(404);

    const api = await fetch(`${site}/api/no-such-endpoint`);
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('not_found');
  });

  it('sends the security headers and a CSP that allows Stripe.js and nothing else third-party', async () => {
    for (const path of ['/', '/api/config']) {
      const response = await fetch(`${site}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('permissions-policy')).toMatch(/camera=\(\)/);
      expect(response.headers.get('strict-transport-security')).toBeNull(); // plain HTTP
      expect(response.headers.get('server')).toBe('nginx');

      const csp = parseCsp(response.headers.get('content-security-policy') ?? '');
      expect(csp).toEqual({
        'default-src': ["'self'"],
        'script-src': ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'],
        'frame-src': [
          'https://js.stripe.com',
          'https://*.js.stripe.com',
          'https://hooks.stripe.com',
        ],
        'connect-src': ["'self'", 'https://api.stripe.com'],
        'img-src': ["'self'", 'data:', 'https://*.stripe.com'],
        'style-src': ["'self'", "'unsafe-inline'"],
        'font-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      });
    }
  });

  it('spreads requests over both app servers, and a session made through one works on the other', async () => {
    const started = await fetch(`${site}/api/session`, { method: 'POST' });
    expect(started.status).toBe(200);
    const { user } = (await started.json()) as { user: { id: string } };
    const setCookie = started.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^cohort_session=/);
    expect(setCookie).not.toMatch(/;\s*Secure/i); // X-Forwarded-Proto: http
    const cookie = setCookie.split(';')[0] ?? '';

    for (let i = 0; i < 4; i += 1) {
      const me = await fetch(`${site}/api/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { user: { id: string } }).user.id).toBe(user.id);
    }
    expect(unique(await upstreamsFor('/api/me'))).toEqual(appPorts());

    for (const app of apps) {
      const me = await fetch(`http://127.0.0.1:${app.port}/api/me`, { headers: { cookie } });
      expect(me.status, `app on ${app.port}`).toBe(200);
      expect(((await me.json()) as { user: { id: string } }).user.id).toBe(user.id);
    }
  });

  it('counts the session rate limit once across both app servers, by the address nginx saw', async () => {
    const remaining: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i <= SESSION_RATE_LIMIT && !limited; i += 1) {
      const response = await fetch(`${site}/api/session`, { method: 'POST' });
      if (response.status === 429) limited = response;
      else {
        expect(response.status).toBe(200);
        remaining.push(Number(response.headers.get('x-ratelimit-remaining')));
      }
    }
    // One counter: each answer, whichever server gave it, has one request fewer left.
    expect(remaining.length).toBeGreaterThanOrEqual(2);
    expect(remaining.at(-1)).toBe(0);
    remaining.forEach((left, i) => expect(left).toBe((remaining[0] ?? 0) - i));
    expect(unique(await upstreamsFor('/api/session'))).toEqual(appPorts());

    // The app's 429 (nginx's own edge limit for sessions is far higher).
    if (!limited) throw new Error(`no 429 after ${SESSION_RATE_LIMIT + 1} sessions`);
    expect(limited.headers.get('x-ratelimit-limit')).toBe(String(SESSION_RATE_LIMIT));
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many requests: try again in /),
    });

    // A client cannot pose as someone else: nginx replaces X-Forwarded-For.
    const spoofed = await fetch(`${site}/api/session`, {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.99' },
    });
    expect(spoofed.status).toBe(429);
  });

  it('answers a flood of sign-in attempts with its own 429, without passing it to the app', async () => {
    const edgeMessage = /^Too many requests from your address/;
    const answers: { status: number; message: string }[] = [];
    for (let i = 0; i < 30; i += 1) {
      const response = await fetch(`${site}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'someone@example.com', password: 'not-the-password' }),
      });
      const body = (await response.json()) as { error?: { code: string; message: string } };
      answers.push({ status: response.status, message: body.error?.message ?? '' });
      if (edgeMessage.test(body.error?.message ?? '')) {
        expect(response.status).toBe(429);
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(body.error?.code).toBe('rate_limited');
      }
    }
    const atEdge = answers.filter((answer) => edgeMessage.test(answer.message));
    // The app's own answers (wrong password, then its limits) come first; nginx's once the flood
    // passes its zone.
    expect(answers.slice(0, 10).every((answer) => !edgeMessage.test(answer.message))).toBe(true);
    expect(atEdge.length).toBeGreaterThanOrEqual(5);

    const log = await readFile(join(work, 'access.log'), 'utf8');
    const unproxied = log.split('\n').filter((line) => line === 'POST /api/auth/login - 429');
    expect(unproxied.length).toBe(atEdge.length);
  });

  it('passes a signed Stripe webhook through unchanged, so it verifies and is recorded', async () => {
    const event = stripe.event('customer.created', { id: 'cus_nginx', object: 'customer' });
    const { payload, headers } = stripe.signedDelivery(event);

    const response = await fetch(`${site}/webhooks/stripe`, {
      method: 'POST',
      headers,
      body: payload,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(await countStripeEvents(database.url, event.id)).toBe(1);

    const tampered = await fetch(`${site}/webhooks/stripe`, {
      method: 'POST',
      headers,
      body: payload.replace('cus_nginx', 'cus_other'),
    });
    expect(tampered.status).toBe(400);
    expect((await tampered.json()).error.code).toBe('invalid_signature');
  });

  it('limits request bodies: 64 KB for the API, 1 MB for webhooks', async () => {
    const tooBig = await fetch(`${site}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(70 * 1024) }),
    });
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).error.code).toBe('payload_too_large');

    // A large (200 KB) but legitimate event reaches the app and verifies.
    const customer = { id: 'cus_large', object: 'customer', description: 'x'.repeat(200 * 1024) };
    const { payload, headers } = stripe.signedDelivery(stripe.event('customer.created', customer));
    const large = await fetch(`${site}/webhooks/stripe`, {
      method: 'POST',
      headers,
      body: payload,
    });
    expect(large.status).toBe(200);
  });

  it('passes the health checks through to the app', async () => {
    expect((await fetch(`${site}/healthz`)).status).toBe(200);
    const ready = await fetch(`${site}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });
});

interface AppProcess {
  port: number;
  child: ChildProcess;
}

/** One app server, as the Docker image runs it, on a free loopback port. */
async function startApp(env: Record<string, string>, work: string): Promise<AppProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/server/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(work, `data-${port}`),
      SESSION_SECRET: TEST_SESSION_SECRET,
      LOG_LEVEL: 'warn',
      // TRUST_PROXY stays unset: the default trusts nginx on the loopback interface only.
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`, child, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { port, child };
}

/**
 * The shipped nginx.conf with its `# test:` lines pointed at this machine, inside a main config
 * that stands in for the one the nginx image brings (temp folders and logs under `work`).
 */
async function writeNginxConfig(options: {
  work: string;
  listen: string;
  appPorts: number[];
}): Promise<string> {
  const { work } = options;
  const shipped = readFileSync(join(root, 'nginx.conf'), 'utf8');
  const replacements: Record<string, string> = {
    'app servers': options.appPorts.map((port) => `server 127.0.0.1:${port};`).join(' '),
    listen: `listen ${options.listen};`,
    root: `root ${clientDir};`,
  };
  const seen = new Set<string>();
  const site = shipped
    .split('\n')
    .map((line) => {
      const marker = /^(\s*)\S.*# test: (.+)$/.exec(line);
      if (!marker) return line;
      const replacement = replacements[marker[2] ?? ''];
      if (replacement === undefined) throw new Error(`nginx.conf: unknown test marker: ${line}`);
      seen.add(marker[2] ?? '');
      return `${marker[1]}${replacement}`;
    })
    .join('\n');
  for (const name of Object.keys(replacements)) {
    if (!seen.has(name)) throw new Error(`nginx.conf has no line marked "# test: ${name}"`);
  }

  const mimeTypes = ['/etc/nginx/mime.types', '/usr/local/nginx/conf/mime.types'].find((path) =>
    existsSync(path),
  );
  if (!mimeTypes) throw new Error('No nginx mime.types found next to the nginx binary');
  const sitePath = join(work, 'cohort.conf');
  const mainPath = join(work, 'nginx.conf');
  await writeFile(sitePath, site);
  await writeFile(
    mainPath,
    `daemon off;
worker_processes 1;
pid ${join(work, 'nginx.pid')};
error_log ${join(work, 'error.log')} warn;
events { worker_connections 256; }
http {
    include ${mimeTypes};
    default_type application/octet-stream;
    sendfile on;
    log_format upstreams '$request_method $uri $upstream_addr $status';
    access_log ${join(work, 'access.log')} upstreams;
    client_body_temp_path ${join(work, 'client_body')};
    proxy_temp_path ${join(work, 'proxy')};
    fastcgi_temp_path ${join(work, 'fastcgi')};
    uwsgi_temp_path ${join(work, 'uwsgi')};
    scgi_temp_path ${join(work, 'scgi')};
    include ${sitePath};
}
`,
  );
  return mainPath;
}

async function startNginx(
  binary: string,
  work: string,
  config: string,
  site: string,
): Promise<ChildProcess> {
  const errorLog = join(work, 'error.log');
  const child = spawn(binary, ['-p', work, '-e', errorLog, '-c', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const log = () => `${output}${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`;
  try {
    await waitUntilReady(`${site}/healthz`, child, log, 15_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return child;
}

function findNginx(): string | undefined {
  const candidates = [
    process.env.NGINX_PATH,
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'nginx')),
    '/usr/sbin/nginx',
    '/usr/local/nginx/sbin/nginx',
  ];
  return candidates.find((path): path is string => {
    if (!path) return false;
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function parseCsp(header: string): Record<string, string[]> {
  return Object.fromEntries(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

async function countStripeEvents(databaseUrl: string, id: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      'SELECT count(*) FROM stripe_events WHERE id = $1',
      [id],
    );
    return Number(result.rows[0]?.count);
  } finally {
    await client.end();
  }
}
