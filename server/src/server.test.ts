import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAKE_STRIPE_KEYS } from '#test/fake-stripe';
import { runCommand } from '#test/run-command';
import { freePort, stopProcess, waitUntilReady } from '#test/site';
import { main as newsletterCommand } from './cli/newsletter.js';
import { projectRoot } from './paths.js';

/** Runs the real entry point (server.ts through tsx) as `npm start` would, without building. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

describe('the server process', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('starts on the embedded database, stops cleanly on SIGTERM, and keeps its data across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cohort-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port) };

    const first = startServer(env);
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`, first.child, first.output);
    expect(first.output()).toContain('Applied migration 20261122000000_init');
    // The public address, and the socket it really listens on.
    expect(first.output()).toContain(
      `Cohort is serving http://localhost:3000 (listening on 127.0.0.1:${port}; embedded database in ${dataDir})`,
    );
    expect(existsSync(join(dataDir, 'pglite'))).toBe(true);
    const secret = await readFile(join(dataDir, 'session-secret'), 'utf8');
    expect(secret.trim()).toMatch(/^[0-9a-f]{64}$/);
    // The operator's commands work beside it: they connect through the server's port to the
    // embedded database (which one process can open), and the site keeps serving meanwhile.
    const pidFile = join(dataDir, 'embedded-database.pid');
    const [pidLine, servedAt] = (await readFile(pidFile, 'utf8')).split('\n');
    expect(pidLine).toBe(String(first.child.pid));
    expect(servedAt).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres/);
    const status = await runCommand(newsletterCommand, ['status'], { DATA_DIR: dataDir });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('subscribers');
    const session = await fetch(`http://127.0.0.1:${port}/api/session`, { method: 'POST' });
    expect(session.status).toBe(200);
    expect(await stopProcess(first.child)).toBe(0);
    expect(first.output()).toContain('SIGTERM received, shutting down');
    expect(existsSync(pidFile)).toBe(false);

    const second = startServer(env);
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`, second.child, second.output);
    // The migrations table survived the restart, so nothing was applied again.
    expect(second.output()).not.toContain('Applied migration');
    expect(await readFile(join(dataDir, 'session-secret'), 'utf8')).toBe(secret);
    expect(await stopProcess(second.child)).toBe(0);
    // Two starts on the embedded database, each given what any test server gets (site.ts): its
    // first start applies every migration in WebAssembly, which the rest of the suite slows.
  }, 300_000);

  it('refuses to start with a bad variable and names it', async () => {
    const { child, output } = startServer({ PORT: 'eighty', MEMBERSHIP_CURRENCY: 'dollars' });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output()).toContain('PORT: must be a whole number');
    expect(output()).toContain('MEMBERSHIP_CURRENCY: must be a three-letter ISO currency code');
  });

  it('refuses to start in production with Stripe keys of two modes, naming the variable', async () => {
    const { child, output } = startServer({
      NODE_ENV: 'production',
      SITE_URL: 'https://cohort.example',
      DATABASE_URL: 'postgresql://127.0.0.1:1/never-reached',
      SESSION_SECRET: 'x'.repeat(32),
      MAIL_TRANSPORT: 'log',
      ...FAKE_STRIPE_KEYS,
      STRIPE_PUBLISHABLE_KEY: 'pk_live_51abcdef',
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output()).toContain(
      'STRIPE_PUBLISHABLE_KEY: is a live key but STRIPE_SECRET_KEY is a test key',
    );
  });

  it('refuses to start in production without DATABASE_URL, SESSION_SECRET and SMTP_URL', async () => {
    const { child, output } = startServer({ NODE_ENV: 'production' });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output()).toContain('DATABASE_URL: is required in production');
    expect(output()).toContain('SESSION_SECRET: is required in production');
    expect(output()).toContain('SMTP_URL: is required in production');
  });
});
