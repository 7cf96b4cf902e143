import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, stopProcess } from './site.js';

/**
 * Debian's PgBouncer (apt install pgbouncer) in transaction pooling mode in front of the test
 * PostgreSQL server, on a free loopback port: what a managed PostgreSQL behind a pooler looks like.
 */

export const pgbouncerBinary = [
  process.env.PGBOUNCER_PATH,
  '/usr/sbin/pgbouncer',
  '/usr/bin/pgbouncer',
]
  .filter((path): path is string => Boolean(path))
  .find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

export interface PgBouncer {
  /** `databaseUrl` with PgBouncer's host and port in place of PostgreSQL's. */
  urlFor(databaseUrl: string): string;
  /** What PgBouncer logged, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts PgBouncer (pool_mode = transaction) in front of the server `serverUrl` names. */
export async function startPgBouncer(
  serverUrl: string,
  options: { poolSize?: number } = {},
): Promise<PgBouncer> {
  if (!pgbouncerBinary) throw new Error('No pgbouncer binary: apt install pgbouncer');
  const server = new URL(serverUrl);
  const work = await mkdtemp(join(tmpdir(), 'cohort-pgbouncer-'));
  // PgBouncer will not run as root: as root, the test runs it as `nobody`, who needs this folder.
  await chmod(work, 0o777);
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  const logFile = join(work, 'pgbouncer.log');
  await writeFile(join(work, 'users.txt'), `"${user}" "${decodeURIComponent(server.password)}"\n`);
  await writeFile(
    join(work, 'pgbouncer.ini'),
    `[databases]
* = host=${server.hostname} port=${server.port || 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(work, 'users.txt')}
pool_mode = transaction
default_pool_size = ${options.poolSize ?? 4}
max_client_conn = 200
logfile = ${logFile}
pidfile = ${join(work, 'pgbouncer.pid')}
`,
  );
  const runsAsRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(pgbouncerBinary, [join(work, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(runsAsRoot && { uid: 65534, gid: 65534 }),
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const log = () => `${output}${existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''}`;

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer did not listen within 10 s:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    log,
    async stop() {
      await stopProcess(child);
      await rm(work, { recursive: true, force: true });
    },
  };
}
