import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brotliModule,
  findNginx,
  startStaticNginx,
  testNginxConfig,
  type StaticNginx,
} from '#test/nginx';

// The shipped nginx.conf loads on any nginx: the official image has no brotli module, Debian's
// can have it (libnginx-mod-http-brotli-static). And it is a template: TLS=on renders the HTTPS
// site and the port-80 redirect from deploy/nginx/tls/, as the nginx image's entry point does.

describe.skipIf(!findNginx())('nginx.conf on nginx with and without the brotli module', () => {
  it('loads on an nginx without the brotli module (gzip_static alone)', async () => {
    const result = await testNginxConfig({ brotli: false });
    expect(result.output).toMatch(/test is successful/);
    expect(result.ok).toBe(true);
  });

  it.skipIf(!brotliModule)('loads with the module and brotli_static switched on', async () => {
    const result = await testNginxConfig({ brotli: true });
    expect(result.output).toMatch(/test is successful/);
    expect(result.ok).toBe(true);
  });
});

describe.skipIf(!findNginx())('nginx.conf rendered with TLS=on', () => {
  let dir: string;
  let nginx: StaticNginx | undefined;
  beforeAll(async () => {
    // A self-signed certificate where Let's Encrypt would put one for cohort.test.
    dir = await mkdtemp(join(tmpdir(), 'cohort-tls-'));
    const live = join(dir, 'live', 'cohort.test');
    await mkdir(live, { recursive: true });
    execFileSync(
      'openssl',
      [
        ...[
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=cohort.test',
        ],
        ...['-keyout', join(live, 'privkey.pem'), '-out', join(live, 'fullchain.pem')],
      ],
      { stdio: 'ignore' },
    );
    nginx = await startStaticNginx({
      minimal: false,
      workerProcesses: 1,
      tls: { serverName: 'cohort.test', letsencryptDir: dir },
    });
  });
  afterAll(async () => {
    await nginx?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the site over HTTPS with the certificate for SERVER_NAME, with HSTS', async () => {
    const answer = await new Promise<{ status: number; hsts: unknown; subject: string }>(
      (resolve, reject) => {
        const request = https.get(
          `${nginx?.url}/favicon.ico`,
          { rejectUnauthorized: false, servername: 'cohort.test' },
          (response) => {
            response.resume();
            const socket = response.socket as TLSSocket;
            resolve({
              status: response.statusCode ?? 0,
              hsts: response.headers['strict-transport-security'],
              subject: String(socket.getPeerCertificate().subject?.CN),
            });
          },
        );
        request.on('error', reject);
      },
    );
    expect(answer).toEqual({ status: 200, hsts: 'max-age=63072000', subject: 'cohort.test' });
  });

  it('redirects plain HTTP to HTTPS, except Let’s Encrypt’s challenges', async () => {
    const page = await fetch(`${nginx?.httpUrl}/health?x=1`, {
      redirect: 'manual',
      headers: { host: 'cohort.test' },
    });
    expect(page.status).toBe(301);
    expect(page.headers.get('location')).toBe('https://cohort.test/health?x=1');
    const challenge = await fetch(`${nginx?.httpUrl}/.well-known/acme-challenge/missing`, {
      redirect: 'manual',
    });
    expect(challenge.status).toBe(404);
  });
});

// The edge limit on page views (docs/analytics.md#limits), with no app behind nginx: a view it
// passes on answers 503 (no app up), one it stops its own 429.
describe.skipIf(!findNginx())('nginx.conf’s edge limit on page views', () => {
  let nginx: StaticNginx | undefined;
  beforeAll(async () => {
    nginx = await startStaticNginx({ minimal: false, workerProcesses: 1 });
  });
  afterAll(async () => {
    await nginx?.stop();
  });

  it('passes 121 views from one address on at once, then stops a flood of 1,000 at the edge', async () => {
    const started = Date.now();
    const codes: string[] = [];
    for (let n = 0; n < 1_000; n += 1) {
      const answer = await fetch(`${nginx?.url}/api/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': `Mozilla/5.0 Reader/${n}` },
        body: JSON.stringify({ type: 'pageview', path: '/' }),
      });
      codes.push(
        `${answer.status} ${((await answer.json()) as { error: { code: string } }).error.code}`,
      );
    }
    // A burst of 120 beyond the first, then 4 a second (240 a minute) however long the flood took.
    const refilled = Math.ceil(((Date.now() - started) / 1_000) * 4);
    expect(codes.slice(0, 121)).toEqual(Array<string>(121).fill('503 unavailable'));
    const stopped = codes.filter((code) => code === '429 rate_limited').length;
    expect(stopped).toBeGreaterThanOrEqual(1_000 - 121 - refilled);
    expect(stopped + codes.filter((code) => code === '503 unavailable').length).toBe(1_000);
  });
});
