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
 * Starts the real, built server (`node dist/server/server.js`, as `npm start` does) on a free port,
 * with a migrated database of its own, and waits until it is ready.
 */
export async function startSite(env: Record<string, string> = {}): Promise<RunningSite> {
  const database: TestDatabase = await createMigratedTestDatabase();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'cohort-site-'));
  const child = spawn(process.execPath, ['dist/server/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      SITE_URL: url,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SESSION_SECRET: TEST_SESSION_SECRET,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  try {
    await waitUntilReady(`${url}/readyz`, child, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    await database.drop();
    throw error;
  }

  return {
    url,
    databaseUrl: database.url,
    output: () => output,
    async stop() {
      const code = await stopProcess(child);
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

export async function waitUntilReady(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited with code ${child.exitCode}:\n${output()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server was not ready within ${timeoutMs} ms:\n${output()}`);
}

/** SIGTERM, then the exit code; SIGKILL if it has not exited within 15 s. */
export async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}
