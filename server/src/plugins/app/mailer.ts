import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DeskMail } from '../../../../contract/desk-api.js';
import { keepMail, readMailbox } from '../../mail/mailbox.js';
import { createMailer, type Mail, type Mailer } from '../../mail/mailer.js';

/** The mail kept while it goes to the log, for the desk's mailbox (mail/mailbox.ts). */
export interface Mailbox {
  keep(mail: Mail): Promise<void>;
  /** Newest first. */
  read(): Promise<DeskMail[]>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
    /** The sender of the site's mail now: MAIL_FROM, or the publication's title (settings). */
    mailFrom(): string;
    /** Null when mail goes to an SMTP server, and in production (isMailboxOn). */
    mailbox: Mailbox | null;
  }
}

export default fp(
  async function mailer(
    app: FastifyInstance,
    options: { smtpUrl: string | undefined; from: string | (() => string); mailbox: boolean },
  ) {
    const pool = app.db.pool;
    const mailbox: Mailbox | null = options.mailbox
      ? { keep: (mail) => keepMail(pool, mail), read: () => readMailbox(pool) }
      : null;
    const { from } = options;
    const mailFrom = typeof from === 'string' ? () => from : from;
    const value = createMailer({
      smtpUrl: options.smtpUrl,
      from: mailFrom,
      log: app.log,
      ...(mailbox && { keep: mailbox.keep }),
    });
    app.decorate('mailer', value);
    app.decorate('mailFrom', mailFrom);
    app.decorate('mailbox', mailbox);
    app.addHook('onClose', async () => value.close());
  },
  { name: 'mailer', dependencies: ['database'] },
);
