import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  freePort,
  startServerProcess,
  stopProcess,
  waitUntilReady,
  type ServerProcess,
} from './site.js';

/**
 * The shipped nginx.conf, run by Debian's nginx in front of real app processes (the built server):
 * what `docker compose up --scale app=N` runs, without Docker. Used by tests/ops and the benchmarks.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
export const clientDir = join(root, 'dist/client');

/** Debian's brotli_static module (libnginx-mod-http-brotli-static), when it is installed. */
export const brotliModule = [
  '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so',
  '/usr/local/nginx/modules/ngx_http_brotli_static_module.so',
].find((path) => existsSync(path));

/** NGINX_PATH, else `nginx` on the PATH or in the usual places; undefined when there is none. */
export function findNginx(): string | undefined {
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

export interface NginxStackOptions {
  /** The apps' environment: DATABASE_URL at least (SITE_URL is the stack's own address). */
  env: Record<string, string>;
  /** How many app processes behind nginx (2 unless told). */
  apps?: number;
  /**
   * Replaces the `rate=` of every `limit_req_zone` (the lines marked `# test: edge rate limit`),
   * e.g. `100000r/s` for a load test whose every request comes from one address. Unset: as shipped.
   */
  edgeRate?: string;
  /** Log `$request_method $uri $upstream_addr $status` per request to `<work>/access.log`. */
  accessLog?: boolean;
  /** nginx's worker_connections (each proxied request holds two). */
  workerConnections?: number;
  /** nginx's worker_processes: 1 unless told (the nginx image's own config says `auto`). */
  workerProcesses?: number | 'auto';
}

export interface NginxStack {
  /** http://127.0.0.1:<port>, nginx's address. */
  url: string;
  /** The folder holding nginx's config, logs and temp files. */
  work: string;
  /** The uploads folder nginx serves `/uploads/` from before it asks the app. */
  uploadsDir: string;
  apps: ServerProcess[];
  /** nginx's access log so far (with `accessLog`). */
  accessLog(): Promise<string>;
  /** The access log in the shipped format (nginx.conf's `cohort`), always written. */
  siteAccessLog(): Promise<string>;
  /**
   * A rolling restart's step: app `index` is stopped (SIGTERM) and a new process started on its
   * port with the same environment; resolves once the new one is ready, with the old one's exit code.
   */
  replaceApp(index: number): Promise<{ exitCode: number | null; stoppedInMs: number }>;
  stop(): Promise<void>;
}

/** Starts the app processes, then nginx with the shipped config in front of them. */
export async function startNginxStack(options: NginxStackOptions): Promise<NginxStack> {
  const binary = findNginx();
  if (!binary) throw new Error('No nginx binary: install Debian’s nginx or set NGINX_PATH');
  for (const built of ['dist/client/index.html', 'dist/server/src/server.js']) {
    if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run npm run build`);
  }
  const work = await mkdtemp(join(tmpdir(), 'cohort-nginx-'));
  // nginx's workers drop root privileges: they must be able to reach their temp folders.
  await chmod(work, 0o755);
  const nginxPort = await freePort();
  const url = `http://127.0.0.1:${nginxPort}`;
  const apps: ServerProcess[] = [];
  let nginx: ChildProcess | undefined;

  const stop = async () => {
    if (nginx) await stopProcess(nginx);
    await Promise.all(apps.map((app) => app.stop()));
    await rm(work, { recursive: true, force: true });
  };

  const env = { SITE_URL: url, ...options.env };
  try {
    const started = await Promise.allSettled(
      Array.from({ length: options.apps ?? 2 }, () => startServerProcess(env)),
    );
    for (const result of started) if (result.status === 'fulfilled') apps.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;

    const config = await writeNginxConfig({
      work,
      listen: `127.0.0.1:${nginxPort}`,
      appPorts: apps.map((app) => app.port),
      edgeRate: options.edgeRate,
      accessLog: options.accessLog ?? false,
      workerConnections: options.workerConnections ?? 256,
      workerProcesses: options.workerProcesses ?? 1,
      brotli: brotliModule !== undefined,
    });
    nginx = await startNginx(binary, work, config, url);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    work,
    uploadsDir: join(work, 'srv', 'uploads'),
    apps,
    accessLog: () => readFile(join(work, 'access.log'), 'utf8'),
    siteAccessLog: () => readFile(join(work, 'site-access.log'), 'utf8'),
    async replaceApp(index) {
      const old = apps[index];
      if (!old) throw new Error(`No app ${index}`);
      const started = Date.now();
      const exitCode = await old.stop();
      const stoppedInMs = Date.now() - started;
      apps[index] = await startServerProcess(env, { port: old.port });
      return { exitCode, stoppedInMs };
    },
    stop,
  };
}

type LineRewrite = string | ((line: string) => string);

/**
 * The shipped nginx.conf with its `# test:` lines pointed at this machine, inside a main config
 * that stands in for the one the nginx image brings (temp folders and logs under `work`).
 */
function findMimeTypes(): string {
  const mimeTypes = ['/etc/nginx/mime.types', '/usr/local/nginx/conf/mime.types'].find((path) =>
    existsSync(path),
  );
  if (!mimeTypes) throw new Error('No nginx mime.types found next to the nginx binary');
  return mimeTypes;
}

/** The nginx container's variables (docker-compose.yml), as TLS on or off sets them. */
function templateVariables(tls: NginxTls | undefined): Record<string, string> {
  return {
    SERVER_NAME: tls?.serverName ?? 'localhost',
    TLS: tls ? 'on' : 'off',
    NGINX_RESOLVER: '127.0.0.53',
  };
}

/** envsubst as the nginx image runs it: `${NAME}` replaced for the names given, nothing else. */
export function renderTemplate(text: string, variables: Record<string, string>): string {
  return text.replace(
    /\$\{([A-Z_][A-Z0-9_]*)\}/g,
    (whole, name: string) => variables[name] ?? whole,
  );
}

/** deploy/nginx/tls/*.template rendered into `dir`, listening on this machine's test ports. */
async function writeTlsTemplates(
  dir: string,
  options: { listen: string; tls?: NginxTls },
): Promise<void> {
  const templates = join(root, 'deploy/nginx/tls');
  await mkdir(dir, { recursive: true });
  for (const file of readdirSync(templates).filter((name) => name.endsWith('.conf.template'))) {
    const rendered = renderTemplate(
      readFileSync(join(templates, file), 'utf8'),
      templateVariables(options.tls),
    )
      .replace(/\blisten 80\b/g, `listen ${options.tls?.httpListen ?? options.listen}`)
      .replace(/\blisten 443\b/g, `listen ${options.listen}`)
      .replaceAll('/etc/letsencrypt/', `${options.tls?.letsencryptDir ?? '/etc/letsencrypt'}/`);
    await writeFile(join(dir, file.replace(/\.template$/, '')), rendered);
  }
}

/** TLS on: the certificate's name, where `live/<name>/` is, and the address of port 80's server. */
export interface NginxTls {
  serverName: string;
  letsencryptDir: string;
  httpListen: string;
}

export async function writeNginxConfig(options: {
  work: string;
  /** TLS=on (the site on `listen` with this certificate), else TLS=off. */
  tls?: NginxTls;
  /** Load the brotli module and switch it on (where Debian's module is installed). */
  brotli: boolean;
  listen: string;
  appPorts: number[];
  edgeRate: string | undefined;
  accessLog: boolean;
  workerConnections: number;
  workerProcesses: number | 'auto';
}): Promise<string> {
  const { work, edgeRate } = options;
  const shipped = readFileSync(join(root, 'nginx.conf'), 'utf8');
  const rewrites: Record<string, LineRewrite> = {
    // Each app server with the shipped line's parameters (`resolve` is for names only).
    'app servers': (line) => {
      const params = line.replace(/^server \S+ |;$/g, '').replace(/\bresolve\b\s*/, '');
      return options.appPorts.map((port) => `server 127.0.0.1:${port} ${params};`).join(' ');
    },
    root: `root ${clientDir};`,
    // The uploads volume nginx serves images from itself: an empty folder of the work folder.
    'uploads root': `root ${join(work, 'srv')};`,

    // Where nginx has the brotli module, the snippet nginx.conf tells operators to write.
    brotli: (line) => (options.brotli ? `include ${join(work, 'brotli.conf')};` : line),
    'edge rate limit': (line) => (edgeRate ? line.replace(/rate=\S+;/, `rate=${edgeRate};`) : line),
    // The shipped format into the work folder; with `accessLog`, also each request's upstream.
    'access log': (line) =>
      `${line.replace(/^access_log \S+/, `access_log ${join(work, 'site-access.log')}`)}${
        options.accessLog ? ` access_log ${join(work, 'access.log')} upstreams;` : ''
      }`,
  };
  const seen = new Set<string>();
  // What the nginx image's entry point does with the template: the variables filled in.
  const cohortDir = join(work, 'cohort');
  const site = renderTemplate(shipped, templateVariables(options.tls))
    .replaceAll('/etc/nginx/conf.d/cohort/', `${cohortDir}/`)
    .split('\n')
    .map((line) => {
      const marker = /^(\s*)(\S.*?)\s*# test: (.+)$/.exec(line);
      if (!marker) return line;
      const [, indent = '', directive = '', name = ''] = marker;
      const rewrite = rewrites[name];
      if (rewrite === undefined) throw new Error(`nginx.conf: unknown test marker: ${line}`);
      seen.add(name);
      return `${indent}${typeof rewrite === 'string' ? rewrite : rewrite(directive)}`;
    })
    .join('\n');
  for (const name of Object.keys(rewrites)) {
    if (!seen.has(name)) throw new Error(`nginx.conf has no line marked "# test: ${name}"`);
  }

  const mimeTypes = findMimeTypes();
  // Run as root, nginx's workers would switch to `nobody`, who cannot read a checkout under a
  // private folder (a mktemp clone is 0700): they run as the test's own user instead.
  const runsAsRoot = process.getuid?.() === 0;
  const sitePath = join(work, 'cohort.conf');
  const mainPath = join(work, 'nginx.conf');
  await writeFile(sitePath, site);
  await mkdir(join(work, 'srv', 'uploads'), { recursive: true });
  await writeTlsTemplates(cohortDir, options);
  await writeFile(join(work, 'brotli.conf'), 'brotli_static on;\n');
  await writeFile(
    mainPath,
    `daemon off;
${options.brotli ? `load_module ${brotliModule};\n` : ''}${runsAsRoot ? 'user root root;\n' : ''}worker_processes ${options.workerProcesses};
pid ${join(work, 'nginx.pid')};
error_log ${join(work, 'error.log')} warn;
events { worker_connections ${options.workerConnections}; }
http {
    include ${mimeTypes};
    default_type application/octet-stream;
    sendfile on;
    log_format upstreams '$request_method $uri $upstream_addr $status';
    access_log off;
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
  url: string,
  readyPath = '/healthz',
  readyStatus = 200,
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
    await waitUntilReady(`${url}${readyPath}`, child, log, 15_000, readyStatus);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return child;
}

/**
 * `nginx -t` on the shipped config as the stack would run it (app servers on unused ports), with or
 * without the brotli module: what nginx says, and whether it accepted the config.
 */
export async function testNginxConfig(options: {
  brotli: boolean;
}): Promise<{ ok: boolean; output: string }> {
  const binary = findNginx();
  if (!binary) throw new Error('No nginx binary: install Debian’s nginx or set NGINX_PATH');
  const work = await mkdtemp(join(tmpdir(), 'cohort-nginx-t-'));
  try {
    await chmod(work, 0o755);
    const config = await writeNginxConfig({
      work,
      listen: '127.0.0.1:1',
      appPorts: [1],
      edgeRate: undefined,
      accessLog: false,
      workerConnections: 64,
      workerProcesses: 1,
      brotli: options.brotli,
    });
    const result = spawnSync(
      binary,
      ['-t', '-p', work, '-e', join(work, 'error.log'), '-c', config],
      {
        encoding: 'utf8',
      },
    );
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export interface StaticNginx {
  url: string;
  /** The plain-HTTP server: `url` itself with TLS off. */
  httpUrl: string;
  stop(): Promise<void>;
}

/**
 * nginx serving the built client's files with no app behind it (its proxied paths answer 503):
 * the shipped config, or with `minimal` the least config that serves the same precompressed files
 * (the yardstick of tests/bench/static-assets.ts).
 */
export async function startStaticNginx(options: {
  minimal: boolean;
  workerProcesses: number | 'auto';
  /** TLS=on with this certificate: `url` is then https, and `httpUrl` the port-80 server's. */
  tls?: { serverName: string; letsencryptDir: string };
}): Promise<StaticNginx> {
  const binary = findNginx();
  if (!binary) throw new Error('No nginx binary: install Debian’s nginx or set NGINX_PATH');
  const work = await mkdtemp(join(tmpdir(), 'cohort-nginx-static-'));
  await chmod(work, 0o755);
  const port = await freePort();
  const httpPort = options.tls ? await freePort() : port;
  const url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  let config: string;
  if (options.minimal) {
    config = join(work, 'nginx.conf');
    await writeFile(
      config,
      `daemon off;
${brotliModule ? `load_module ${brotliModule};\n` : ''}${process.getuid?.() === 0 ? 'user root root;\n' : ''}worker_processes ${options.workerProcesses};
pid ${join(work, 'nginx.pid')};
events { worker_connections 1024; }
http {
    include ${findMimeTypes()};
    sendfile on;
    access_log off;
    client_body_temp_path ${join(work, 'client_body')};
    proxy_temp_path ${join(work, 'proxy')};
    fastcgi_temp_path ${join(work, 'fastcgi')};
    uwsgi_temp_path ${join(work, 'uwsgi')};
    scgi_temp_path ${join(work, 'scgi')};
    server {
        listen 127.0.0.1:${port};
        root ${clientDir};
        gzip_static on;
${brotliModule ? '        brotli_static on;\n' : ''}    }
}
`,
    );
  } else {
    config = await writeNginxConfig({
      work,
      listen: `127.0.0.1:${port}`,
      appPorts: [await freePort()],
      edgeRate: undefined,
      accessLog: false,
      workerConnections: 1024,
      workerProcesses: options.workerProcesses,
      brotli: brotliModule !== undefined,
      ...(options.tls && { tls: { ...options.tls, httpListen: `127.0.0.1:${httpPort}` } }),
    });
  }
  // With TLS, ready once port 80's server answers its challenge path (a 404 of its own).
  const nginx = await startNginx(
    binary,
    work,
    config,
    options.tls ? httpUrl : url,
    options.tls ? '/.well-known/acme-challenge/' : '/favicon.ico',
    options.tls ? 404 : 200,
  );
  return {
    url,
    httpUrl,
    async stop() {
      await stopProcess(nginx);
      await rm(work, { recursive: true, force: true });
    },
  };
}
