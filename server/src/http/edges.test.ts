import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSite, type Site } from '#test/with-site';
import { CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY } from './security-headers.js';

/** What a raw HTTP exchange on a real socket gave back: the status line and the body. */
interface RawAnswer {
  statusLine: string;
  body: string;
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMs: number;
}

function rawRequest(port: number, chunks: string[], gapMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => (received += data.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({
        statusLine: head.split('\r\n')[0] ?? '',
        body,
        closedAfterMs: Date.now() - started,
      });
    });
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

const request = (line: string, headers = 'Host: cohort.test\r\nConnection: close\r\n') =>
  `${line}\r\n${headers}\r\n`;

describe('the edges of HTTP', () => {
  let t: Site;
  let port: number;

  beforeAll(async () => {
    t = await withSite({ httpTimeouts: { headersMs: 500, requestMs: 1_500 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  const shape = (body: string) => JSON.parse(body) as { error: { code: string; message: string } };

  it('answers an address that does not decode with a 400 in the error shape', async () => {
    const answer = await rawRequest(port, [request('GET /%ZZ HTTP/1.1')]);
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(shape(answer.body)).toEqual({
      error: { code: 'bad_request', message: 'The address is not valid.' },
    });
  });

  it('answers an over-long checkout id with a 414 in the error shape', async () => {
    const answer = await rawRequest(port, [
      request(`GET /api/checkout/cs_${'a'.repeat(300)} HTTP/1.1`),
    ]);
    expect(answer.statusLine).toBe('HTTP/1.1 414 URI Too Long');
    expect(shape(answer.body).error.code).toBe('uri_too_long');
  });

  it('answers a method HTTP does not know, and oversized headers, in the error shape', async () => {
    const brew = await rawRequest(port, [request('BREW /api/me HTTP/1.1')]);
    expect(brew.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(shape(brew.body).error.code).toBe('bad_request');

    const big = await rawRequest(port, [
      request('GET /api/me HTTP/1.1', `Host: cohort.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n`),
    ]);
    expect(big.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(shape(big.body).error.code).toBe('headers_too_large');
  });

  it('answers a known path with an unsupported method with a 404 in the error shape', async () => {
    const answer = await rawRequest(port, [request('PROPFIND /api/me HTTP/1.1')]);
    expect(answer.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(shape(answer.body).error.code).toBe('not_found');
  });

  it('cuts off a client that never finishes its headers', async () => {
    // Half a request, then silence: the server answers 408 and closes, well before a minute.
    const answer = await rawRequest(port, ['GET /api/me HTTP/1.1\r\nHost: cohort.test\r\n']);
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(shape(answer.body).error.code).toBe('request_timeout');
    expect(answer.closedAfterMs).toBeLessThan(3_000);
  });

  it('cuts off a body that trickles in past the request timeout', async () => {
    const head =
      'POST /api/auth/login HTTP/1.1\r\nHost: cohort.test\r\nContent-Type: application/json\r\n' +
      'Content-Length: 400\r\n\r\n';
    // One byte every 200 ms: 400 bytes would take 80 s.
    const answer = await rawRequest(port, [head, ...Array.from({ length: 50 }, () => ' ')], 200);
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(answer.closedAfterMs).toBeLessThan(5_000);
  });

  it('sends the security headers itself, with the CSP nginx sends', async () => {
    for (const url of ['/api/config', '/api/nothing-here']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
      expect(response.headers['strict-transport-security']).toBeUndefined();
      const csp = String(response.headers['content-security-policy'] ?? '')
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .filter((parts) => parts[0]);
      expect(Object.fromEntries(csp.map(([name, ...sources]) => [name, sources]))).toEqual(
        CONTENT_SECURITY_POLICY,
      );
    }
  });
});
