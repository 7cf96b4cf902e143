import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page } from '../../site/site-pages.js';

const REVALIDATE = 'no-cache';

type ContentEncoding = 'br' | 'gzip' | 'identity';

/**
 * The encoding to send for an `Accept-Encoding` header: brotli, then gzip, then none, skipping
 * any the client refuses with `q=0`.
 */
export function preferredEncoding(acceptEncoding: string | undefined): ContentEncoding {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}

/**
 * A drawn page as this reader's browser gets it: the signed-in copy to a reader who carries a
 * signed-in token, revalidated on every load (a page drawn for a reader who reads more than a
 * visitor private), a 304 to a reader who holds it, compressed the way the reader accepts.
 */
export async function sendPage(request: FastifyRequest, reply: FastifyReply, copies: Page) {
  const { status } = copies;
  const signedIn =
    copies.forReader || (await request.server.sessions.carriesSignedInToken(request));
  const page = signedIn ? copies.signedIn : copies.anonymous;
  void reply
    // A reader's own copy (a restricted post whole): for their browser alone.
    .header('cache-control', copies.forReader ? 'private, no-cache' : REVALIDATE)
    .header('etag', page.etag)
    .header('vary', 'Accept-Encoding, Cookie');
  // nginx weakens the validator when it gzips (W/"…"): the same page either way.
  const known = (request.headers['if-none-match'] ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''));
  if (status === 200 && known.includes(page.etag)) {
    return reply.code(304).send();
  }
  void reply.code(status).type('text/html; charset=utf-8');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (encoding === 'identity') return reply.send(page.html);
  return reply.header('content-encoding', encoding).send(await page.compressed(encoding));
}
