import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../../http/errors.js';
import { deskStaff } from './desk-staff.js';

/**
 * `GET /api/desk/mailbox`: the mail the site would have sent while it goes to the log (no SMTP
 * server; never in production: mail/mailbox.ts), newest first, `{mails: [{to, subject, text, html,
 * at}]}`. For owners only: it holds every member's sign-in links and codes. When mail goes to a
 * real server there is no mailbox, and the address answers 404 to everyone.
 */
const deskMailboxRoutes: FastifyPluginAsync = async (app) => {
  app.get('/mailbox', async (request) => {
    const { mailbox } = app;
    if (!mailbox) {
      throw new HttpError(
        404,
        'not_found',
        'There is no mailbox: mail goes to the SMTP server (SMTP_URL), or this is production.',
      );
    }
    if (deskStaff(request).role !== 'owner') {
      throw new HttpError(
        403,
        'owners_only',
        "The mailbox is for owners (STAFF_EMAILS): it holds every member's sign-in links and codes.",
      );
    }
    return { mails: await mailbox.read() };
  });
};

export default deskMailboxRoutes;
