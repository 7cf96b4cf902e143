import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../../mail/mailer.js';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export default fp(
  async function mailer(
    app: FastifyInstance,
    options: { smtpUrl: string | undefined; from: string },
  ) {
    const value = createMailer({ ...options, log: app.log });
    app.decorate('mailer', value);
    app.addHook('onClose', async () => value.close());
  },
  { name: 'mailer' },
);
