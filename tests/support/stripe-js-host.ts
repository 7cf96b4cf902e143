import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { stripeJsStandIn } from '../e2e/support/stripe-js-stand-in.js';

/** An HTTPS server on loopback answering every request for js.stripe.com with the stand-in. */
export interface StripeJsHost {
  /**
   * Chromium flags that send js.stripe.com to this server and accept its self-signed certificate
   * (the only host a page reaches with it here: everything else is loopback over plain HTTP).
   */
  chromiumFlags: string[];
  stop(): Promise<void>;
}

/**
 * js.stripe.com cannot be reached from this machine, so a benchmark that loads /early-access in a
 * browser it does not drive (Lighthouse) would log the failed script load that no visitor sees.
 * The browser tests fulfil the request with `page.route`; this serves the same stand-in at a
 * real address the browser is pointed at, with a certificate made for the run by openssl.
 */
export async function startStripeJsHost(): Promise<StripeJsHost> {
  const dir = await mkdtemp(join(tmpdir(), 'cohort-stripe-js-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-subj', '/CN=js.stripe.com', '-days', '1', '-keyout', key, '-out', cert],
    ],
    { stdio: 'ignore' },
  );
  // Compressed, as Stripe serves it.
  const script = gzipSync(stripeJsStandIn());
  const server = createServer(
    { key: await readFile(key), cert: await readFile(cert) },
    (_, res) => {
      res.writeHead(200, {
        'content-type': 'application/javascript',
        'content-encoding': 'gzip',
        'access-control-allow-origin': '*',
        'cache-control': 'public, max-age=300',
      });
      res.end(script);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    chromiumFlags: [
      `--host-resolver-rules="MAP js.stripe.com 127.0.0.1:${port}"`,
      '--ignore-certificate-errors',
    ],
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
