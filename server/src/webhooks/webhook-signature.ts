import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A webhook's signature, exactly as Ghost makes it (docs/ghost-api.md#webhooks): the header
 * `X-Ghost-Signature: sha256=<hex>, t=<ms>`, where `<hex>` is the HMAC-SHA256, keyed with the
 * webhook's secret, of the request's body (the JSON text, byte for byte) followed at once by
 * `<ms>`, the time of sending in milliseconds since 1970 as decimal digits.
 */
export function signWebhook(body: string, secret: string, timestamp: number): string {
  const digest = createHmac('sha256', secret).update(`${body}${timestamp}`).digest('hex');
  return `sha256=${digest}, t=${timestamp}`;
}

/**
 * What a receiver does with the header: true when it is this body's signature with this secret.
 * (The tests' receiver checks deliveries with it; the docs give the same recipe.)
 */
export function verifyWebhookSignature(body: string, header: string, secret: string): boolean {
  const match = /^sha256=([0-9a-f]{64}), t=(\d+)$/.exec(header.trim());
  if (!match) return false;
  const expected = signWebhook(body, secret, Number(match[2]));
  return (
    expected.length === header.trim().length &&
    timingSafeEqual(Buffer.from(expected), Buffer.from(header.trim()))
  );
}
