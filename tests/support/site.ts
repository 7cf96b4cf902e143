import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SESSION_SECRET } from './test-app.js';
import { createMigratedTestDatabase, type TestDatabase } from './test-database.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningSite {
  url: string;
  databaseUrl: string;
  /** What the server printed, for failure messages. */
  output(): string;
  stop(): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Starts the real, built server (`node dist/server/src/server.js`, as `npm start` does) on a free port,
 * with a migrated database of its own, and waits until it is ready.
 */
export async function startSite(
  env: Record<string, string> = {},
  options: { hostname?: string } = {},
): Promise<RunningSite> {
  const database: TestDatabase = await createMigratedTestDatabase();
  let server: ServerProcess;
  try {
    // Browser tests start sessions, register, sign in and sign up for the newsletter many times a
    // minute from one address, many specs on one site: the per-IP limits are tested on their own
    // (server/src/routes/auth/auth.test.ts, session and newsletter tests, tests/ops/nginx.test.ts).
    server = await startServerProcess(
      {
        DATABASE_URL: database.url,
        ACCOUNT_RATE_LIMIT: '1000',
        LOGIN_RATE_LIMIT: '1000',
        SESSION_RATE_LIMIT: '1000',
        NEWSLETTER_RATE_LIMIT: '1000',
        EVENTS_RATE_LIMIT: '1000',
        ...env,
      },
      { hostname: options.hostname },
    );
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    url: server.url,
    databaseUrl: database.url,
    output: server.output,
    async stop() {
      const code = await server.stop();
      await database.drop();
      return code;
    },
  };
}

export interface ServerProcess {
  port: number;
  url: string;
  child: ChildProcess;
  /** What the server printed, for failure messages. */
  output(): string;
  /** SIGTERM (SIGKILL after 15 s), then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * One app server process as production runs it (`node dist/server/src/server.js`, NODE_ENV=production)
 * on a free loopback port (or the one given), ready to serve. `env` must name the database
 * (DATABASE_URL).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: {
    port?: number;
    /** false: the server's output is never read (a pipe that fills up, as when its parent hangs). */
    readOutput?: boolean;
    /**
     * The name in SITE_URL and `url` (127.0.0.1 unless given): `localhost` for passkeys, whose
     * relying party id cannot be an IP address. The server listens on 127.0.0.1 either way.
     */
    hostname?: string;
    /** Told the server's whole output so far each time more comes, before it is ready too. */
    onOutput?: (text: string) => void;
  } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://${options.hostname ?? '127.0.0.1'}:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'cohort-site-'));
  const child = spawn(process.execPath, ['dist/server/src/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      SITE_URL: url,
      // Plain HTTP on the loopback interface, as a test runs it: meant, not a mistake.
      ALLOW_INSECURE_SITE_URL: 'true',
      DATA_DIR: dataDir,
      SESSION_SECRET: TEST_SESSION_SECRET,
      LOG_LEVEL: 'warn',
      // Production wants an SMTP server; a test that reads mail gives it one (SMTP_URL).
      ...(!env.SMTP_URL && { MAIL_TRANSPORT: 'log' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    options.onOutput?.(output);
  };
  if (options.readOutput === false) child.stdout?.pause();
  else child.stdout?.on('data', read);
  child.stderr?.on('data', read);

  try {
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`, child, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url,
    child,
    output: () => output,
    async stop() {
      const code = await stopProcess(child);
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * Waits for `url` to answer `status`, failing at once if the process exits. The deadline is
 * generous: a first start imports the shipped posts, which has taken over 30 s on a machine busy
 * with the rest of the suite; a server that is up is seen within 100 ms either way.
 */
export async function waitUntilReady(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 120_000,
  status = 200,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.signalCode ? `on ${child.signalCode}` : `with code ${child.exitCode}`;
      throw new Error(`The server exited ${how}:\n${output()}`);
    }
    try {
      const response = await fetch(url, { redirect: 'manual' });
      if (status === 200 ? response.ok : response.status === status) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server was not ready within ${timeoutMs} ms:\n${output()}`);
}

/** SIGTERM, then the exit code; SIGKILL if it has not exited within 15 s. */
export async function stopProcess(child: ChildProcess): Promise<number | null> {
  // Killed by a signal, a process has no exit code but a signal code.
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}
