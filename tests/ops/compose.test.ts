import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startServerProcess } from '#test/site';
import { createMigratedTestDatabase, createTestDatabase } from '#test/test-database';
import { projectRoot } from '../../server/src/paths.js';

/**
 * The files an operator runs with Docker, checked without a Docker engine: docker-compose.yml as
 * `docker-compose config` (Debian's docker-compose) resolves it, the Dockerfile by dockerfilelint,
 * the app's health check against a real server, and the backup service's scripts against the test
 * PostgreSQL.
 */

const run = promisify(execFile);
const hasCommand = (command: string, args = ['--version']) =>
  !spawnSync(command, args, { stdio: 'ignore' }).error;

interface Service {
  image?: string;
  read_only?: boolean;
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  deploy?: { resources?: { limits?: { cpus?: string | number; memory?: string } } };
}

const ENV = {
  POSTGRES_PASSWORD: 'compose0test0password',
  SESSION_SECRET: 's'.repeat(40),
  SITE_URL: 'https://cohort.example',
  STRIPE_SECRET_KEY: 'sk_test_compose',
};

async function composeConfig(env: Record<string, string>): Promise<Record<string, Service>> {
  const dir = await mkdtemp(join(tmpdir(), 'cohort-compose-'));
  try {
    const envFile = join(dir, '.env');
    await writeFile(
      envFile,
      Object.entries(env)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(''),
    );
    const { stdout } = await run(
      'docker-compose',
      ['--env-file', envFile, '--profile', 'redis', '--profile', 'tls', 'config'],
      { cwd: projectRoot, env: { PATH: process.env.PATH ?? '' } },
    );
    return (parse(stdout) as { services: Record<string, Service> }).services;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!hasCommand('docker-compose'))('docker-compose.yml', () => {
  let services: Record<string, Service>;
  beforeAll(async () => {
    services = await composeConfig(ENV);
  });

  it('hardens every service: read-only root, no capabilities but named ones, no new privileges, limits', () => {
    expect(Object.keys(services).sort()).toEqual([
      'app',
      'backup',
      'certbot',
      'nginx',
      'postgres',
      'redis',
    ]);
    for (const [name, service] of Object.entries(services)) {
      expect(service.read_only, name).toBe(true);
      expect(service.cap_drop, name).toEqual(['ALL']);
      expect(service.security_opt, name).toContain('no-new-privileges:true');
      expect(service.deploy?.resources?.limits?.memory, name).toMatch(/^\d+[mg]$/);
      expect(Number(service.deploy?.resources?.limits?.cpus), name).toBeGreaterThan(0);
    }
    // nginx alone gets back what binding ports 80/443 and starting its workers need.
    expect(services.nginx?.cap_add?.sort()).toEqual([
      'CHOWN',
      'NET_BIND_SERVICE',
      'SETGID',
      'SETUID',
    ]);
    for (const name of ['app', 'postgres', 'backup', 'redis', 'certbot']) {
      expect(services[name]?.cap_add, name).toBeUndefined();
    }
  });

  it('pins every image it pulls to a release', () => {
    for (const [name, service] of Object.entries(services)) {
      if (name === 'app' || name === 'nginx') continue; // built here
      // A release, not a moving tag: postgres:17.6, nginx:1.28.0, certbot:v4.1.1 (never :latest, :17).
      expect(service.image, name).toMatch(/:v?\d+\.\d+(\.\d+)?(-[a-z]+)?$/);
    }
  });

  it('gives each service only its own variables: no database password or Stripe key where not needed', () => {
    const app = services.app?.environment ?? {};
    expect(app.POSTGRES_PASSWORD).toBeUndefined();
    expect(app.DATABASE_URL).toBe(
      `postgresql://cohort:${ENV.POSTGRES_PASSWORD}@postgres:5432/cohort`,
    );
    expect(app.STRIPE_SECRET_KEY).toBe(ENV.STRIPE_SECRET_KEY);
    for (const name of ['nginx', 'postgres', 'backup', 'redis', 'certbot']) {
      const env = JSON.stringify(services[name]?.environment ?? {});
      expect(env, name).not.toContain(ENV.STRIPE_SECRET_KEY);
      expect(env, name).not.toContain(ENV.SESSION_SECRET);
    }
    for (const name of ['nginx', 'redis', 'certbot']) {
      expect(JSON.stringify(services[name]?.environment ?? {}), name).not.toContain(
        ENV.POSTGRES_PASSWORD,
      );
    }
    expect(services.nginx?.environment).toMatchObject({ SERVER_NAME: 'localhost', TLS: 'off' });
  });

  it('refuses to start without the secrets it cannot make up', async () => {
    for (const missing of ['POSTGRES_PASSWORD', 'SESSION_SECRET', 'SITE_URL'] as const) {
      const env = Object.fromEntries(Object.entries(ENV).filter(([name]) => name !== missing));
      await expect(composeConfig(env), missing).rejects.toThrow(`set ${missing} in .env`);
    }
  });

  it('checks the app’s health without starting Node, and the check works on a real server', async () => {
    const test = services.app?.healthcheck?.test ?? [];
    expect(test.slice(0, 3)).toEqual(['CMD', 'bash', '-c']);
    const script = test[3] ?? '';
    expect(script).not.toMatch(/\bnode\b/);

    const database = await createMigratedTestDatabase();
    const server = await startServerProcess({ DATABASE_URL: database.url });
    try {
      const check = (port: number) =>
        spawnSync('bash', ['-c', script.replace('/3000', `/${port}`)], { timeout: 3_000 }).status;
      expect(check(server.port)).toBe(0);
      await server.stop();
      expect(check(server.port)).not.toBe(0);
    } finally {
      await server.stop();
      await database.drop();
    }
  });
});

describe('the Dockerfile', () => {
  it('passes dockerfilelint', async () => {
    const result = spawnSync(
      process.execPath,
      [join(projectRoot, 'node_modules/dockerfilelint/bin/dockerfilelint'), 'Dockerfile'],
      { cwd: projectRoot, encoding: 'utf8' },
    );
    expect(result.stdout).toContain('Issues: None found');
    expect(result.status).toBe(0);
  });

  it('pins every base image to a release, and its health check starts no Node', async () => {
    const dockerfile = await readFile(join(projectRoot, 'Dockerfile'), 'utf8');
    const stages = new Set([...dockerfile.matchAll(/^FROM \S+ AS (\S+)/gm)].map((m) => m[1]));
    const images = [...dockerfile.matchAll(/^FROM (\S+)/gm)]
      .map((match) => match[1] ?? '')
      .filter((image) => !stages.has(image));
    expect(images.length).toBeGreaterThanOrEqual(2);
    for (const image of images) expect(image).toMatch(/:\d+\.\d+\.\d+-/);
    expect(/^HEALTHCHECK[^\n]*\n\s*CMD (.*)$/m.exec(dockerfile)?.[1]).not.toMatch(/"node"/);
  });
});

const backupScripts = join(projectRoot, 'deploy/backup');
const canBackUp = !!process.env.TEST_DATABASE_URL && hasCommand('pg_dump');

describe.skipIf(!canBackUp)('the backup service’s scripts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cohort-backups-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** libpq's variables for a database URL, as docker-compose.yml sets them for `backup`. */
  const libpqEnv = (url: string) => {
    const parsed = new URL(url);
    return {
      PATH: process.env.PATH ?? '',
      PGHOST: parsed.hostname,
      PGPORT: parsed.port || '5432',
      PGUSER: decodeURIComponent(parsed.username),
      PGPASSWORD: decodeURIComponent(parsed.password),
      PGDATABASE: parsed.pathname.slice(1),
      BACKUP_DIR: dir,
    };
  };

  it('dumps, keeps the newest BACKUP_KEEP, and restores a dump with the reconcile step to follow', async () => {
    const source = await createMigratedTestDatabase();
    const target = await createTestDatabase();
    try {
      await query(
        source.url,
        `INSERT INTO users (id, "updatedAt") VALUES ('6f1c7a2e-0b6e-4a43-9d55-2a1f4c3b7e10', now())`,
      );
      // Three older backups already there.
      for (const day of ['01', '02', '03']) {
        await writeFile(join(dir, `cohort-2026-01-${day}T030000Z.dump`), 'old');
      }
      const backup = await run('sh', [join(backupScripts, 'backup.sh'), 'once'], {
        env: { ...libpqEnv(source.url), BACKUP_KEEP: '2' },
      });
      expect(backup.stdout).toMatch(
        /backup: wrote .*cohort-\d{4}-\d\d-\d\dT\d{6}Z\.dump \(\d+ bytes\)/,
      );
      const kept = (await readdir(dir)).sort();
      expect(kept).toHaveLength(2);
      expect(kept[0]).toBe('cohort-2026-01-03T030000Z.dump');
      const dump = join(dir, kept[1] ?? '');
      expect(existsSync(dump)).toBe(true);

      const restore = await run('sh', [join(backupScripts, 'restore.sh'), dump], {
        env: libpqEnv(target.url),
      });
      const day = /cohort-(\d{4}-\d\d-\d\d)T/.exec(kept[1] ?? '')?.[1];
      expect(restore.stdout).toContain(
        `docker compose exec app npm run stripe:reconcile -- --since ${day}`,
      );
      const rows = await query(target.url, 'SELECT id FROM users');
      expect(rows).toEqual([{ id: '6f1c7a2e-0b6e-4a43-9d55-2a1f4c3b7e10' }]);
    } finally {
      await source.drop();
      await target.drop();
    }
  });

  it('refuses a nonsensical BACKUP_KEEP rather than deleting every backup', async () => {
    const result = await run('sh', [join(backupScripts, 'backup.sh'), 'once'], {
      env: { PATH: process.env.PATH ?? '', BACKUP_DIR: dir, BACKUP_KEEP: '0' },
    }).catch((error: { code: number; stdout: string }) => error);
    expect(result).toMatchObject({ code: 2, stdout: expect.stringContaining('BACKUP_KEEP') });
  });
});

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}
