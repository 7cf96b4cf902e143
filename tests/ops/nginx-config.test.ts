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
