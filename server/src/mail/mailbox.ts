import type pg from 'pg';
import type { DeskMail } from '../../../contract/desk-api.js';
import type { Mail } from './mailer.js';

// The desk's mailbox (GET /api/desk/mailbox, /desk/mailbox): while mail goes to the log instead
// of an SMTP server, every mail the site would have sent is kept in the database as well, so a
// developer reads its HTML in the desk, from any app server and after a restart. Never in
// production: a sign-in link or code kept here would let whoever reads it into that account.

/** How many mails the mailbox keeps: the oldest go as new ones come. */
export const MAILBOX_SIZE = 300;

/**
 * Whether the mailbox is on: mail goes to the log (no SMTP_URL, or MAIL_TRANSPORT=log), and this
 * is not production, where MAIL_TRANSPORT=log prints mail to the log and keeps nothing.
 */
export function isMailboxOn(config: { env: string; smtpUrl: string | undefined }): boolean {
  return config.smtpUrl === undefined && config.env !== 'production';
}

/** Keeps a mail, and lets the oldest go beyond MAILBOX_SIZE. */
export async function keepMail(pool: Pick<pg.Pool, 'query'>, mail: Mail): Promise<void> {
  await pool.query(
    `WITH kept AS (
       INSERT INTO "logged_mails" ("to", "subject", "text", "html") VALUES ($1, $2, $3, $4)
       RETURNING "id"
     )
     DELETE FROM "logged_mails" WHERE "id" <= (SELECT "id" FROM kept) - $5`,
    [mail.to, mail.subject, mail.text, mail.html ?? null, MAILBOX_SIZE],
  );
}

/** The kept mails, newest first. */
export async function readMailbox(pool: Pick<pg.Pool, 'query'>): Promise<DeskMail[]> {
  const { rows } = await pool.query<{
    to: string;
    subject: string;
    text: string;
    html: string | null;
    at: Date;
  }>(
    `SELECT "to", "subject", "text", "html", "at" FROM "logged_mails" ORDER BY "id" DESC LIMIT $1`,
    [MAILBOX_SIZE],
  );
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
}
