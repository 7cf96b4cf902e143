import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY } from '../../http/security-headers.js';

/**
 * The security headers on every answer, from the app itself (@fastify/helmet), so it is safe run
 * alone too. Behind nginx, nginx.conf sends the same ones and hides these (one copy each).
 * Strict-Transport-Security is nginx's to send, once the operator has TLS working.
 */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: Object.fromEntries(
          Object.entries(CONTENT_SECURITY_POLICY).map(([name, sources]) => [name, [...sources]]),
        ),
      },
      frameguard: { action: 'sameorigin' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: false,
    });
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('permissions-policy', PERMISSIONS_POLICY);
    });
  },
  { name: 'security-headers' },
);
