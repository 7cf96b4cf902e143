import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../http/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Routes that authenticate requests their own way (Stripe signs its webhooks). */
const EXEMPT = /^\/webhooks\//;

/**
 * Cross-site request protection for every state-changing request: a request that a browser says
 * came from another site (`Sec-Fetch-Site: cross-site`, or an `Origin` that is not ours) gets 403.
 * Bodies are JSON only (the text/plain parser is removed), so an HTML form on another site cannot
 * send one either: browsers cannot send JSON cross-site without a CORS preflight we never allow.
 * The exceptions, the desk's image upload and import (multipart), are staff-only, and a browser's
 * cross-site form post carries its `Origin` (and no SameSite session cookie).
 */
export default fp(
  async function crossSiteGuard(app: FastifyInstance, options: { siteUrl: string }) {
    const siteOrigin = new URL(options.siteUrl).origin;
    app.removeContentTypeParser('text/plain');

    function isForeignOrigin(request: FastifyRequest, origin: string): boolean {
      if (origin === siteOrigin) return false;
      // The same server reached under another name (e.g. 127.0.0.1 vs localhost in development),
      // from the Host header itself: never X-Forwarded-Host, which any client can send.
      const ownOrigin = `${request.protocol}://${request.headers.host ?? ''}`;
      return origin !== ownOrigin;
    }

    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method) || EXEMPT.test(request.url)) return;
      const fetchSite = request.headers['sec-fetch-site'];
      const origin = request.headers.origin;
      if (
        fetchSite === 'cross-site' ||
        (origin !== undefined && isForeignOrigin(request, origin))
      ) {
        throw new HttpError(
          403,
          'cross_site_request',
          'Requests from other sites are not allowed.',
        );
      }
    });
  },
  { name: 'cross-site-guard' },
);
