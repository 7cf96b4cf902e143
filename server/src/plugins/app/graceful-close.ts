import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** How often idle keep-alive connections are closed while the app is closing. */
const IDLE_SWEEP_MS = 50;

/**
 * Makes `app.close()` quick under traffic. Fastify stops accepting, answers new requests on open
 * connections with 503 (nginx retries those elsewhere) and closes the connections idle at that
 * moment; here, each response finished while closing says `Connection: close` and its connection
 * ends with it, and connections that fall idle later are closed too, so a proxy's keep-alive
 * connections (nginx's `keepalive`) cannot hold the process open.
 */
export default fp(
  async function gracefulClose(app: FastifyInstance) {
    let closing = false;
    let sweep: NodeJS.Timeout | undefined;
    app.addHook('preClose', async () => {
      closing = true;
      app.server.closeIdleConnections();
      sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
    });
    app.addHook('onSend', async (_request, reply) => {
      if (closing) void reply.header('connection', 'close');
    });
    app.addHook('onClose', async () => {
      clearInterval(sweep);
    });
  },
  { name: 'graceful-close' },
);
