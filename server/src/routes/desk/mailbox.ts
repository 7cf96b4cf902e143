import type { FastifyPluginAsync } from 'fastify';
import type { Mailbox } from '../../plugins/app/mailer.js';

/**
 * `GET /api/desk/mailbox`: the mail the site would have sent while it goes to the log (no SMTP
 * server; never in production: mail/mailbox.ts), newest first, `{mails: [{to, subject, text, html,
 * at}]}`. For owners only: it holds every member's sign-in links and codes. Registered only when
 * there is a mailbox: when mail goes to a real server, the address answers 404 to everyone.
 */
const deskMailboxRoutes: FastifyPluginAsync<{ mailbox: Mailbox }> = async (app, { mailbox }) => {
  app.get('/mailbox', { config: { access: 'owner' } }, async () => ({
    mails: await mailbox.read(),
  }));
};

export default deskMailboxRoutes;
