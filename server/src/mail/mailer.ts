import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** An HTML part beside the text (newsletters); mail without one is plain text. */
  html?: string;
  /** Extra headers: List-Unsubscribe, List-Unsubscribe-Post, List-Id… */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

interface Logger {
  info(object: object, message: string): void;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  /** The sender, or how to say it at each send (the publication's title of the moment). */
  from: string | (() => string);
  log: Logger;
  /**
   * Keep this many SMTP connections open and reuse them (bulk sending). Without it each mail opens
   * its own connection, which is right for the odd password-reset mail.
   */
  poolConnections?: number;
  /** Without SMTP: also keeps each mail (the desk's mailbox, mailbox.ts). */
  keep?: (mail: Mail) => Promise<void>;
}

/**
 * How long a mail may wait on the SMTP server before it counts as a temporary failure (retried):
 * nodemailer's own defaults (two minutes to connect, ten of silence) would hold a newsletter's job
 * past its lease on the queue.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * Outgoing mail through `SMTP_URL` (nodemailer). Without it, mail is written to the log (and kept
 * for the desk's mailbox when `keep` is given), so a developer can still follow a password-reset
 * link.
 */
export function createMailer(options: MailerOptions): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(mail) {
        options.log.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          `mail to ${mail.to} (SMTP_URL is not set, so it is logged instead)`,
        );
        await options.keep?.(mail);
      },
      close() {},
    };
  }
  const transport = options.poolConnections
    ? nodemailer.createTransport({
        // Parsed here: nodemailer ignores `pool` beside a `url` and opens a connection a mail.
        ...parseConnectionUrl(options.smtpUrl),
        pool: true,
        maxConnections: options.poolConnections,
        maxMessages: Infinity,
        ...SMTP_TIMEOUTS,
        // Each mail ends with small writes (the final dot) that Nagle's algorithm holds until the
        // server's delayed ACK: 40 ms a mail, 25 mails a second a connection. So the pool gets
        // sockets without it (for smtps:// nodemailer starts TLS on this socket itself).
        getSocket: (
          target: { host?: string; port?: number },
          callback: (error: Error | null, socket?: { connection: Socket }) => void,
        ) => {
          const socket = connect({ host: target.host, port: target.port ?? 25, noDelay: true });
          const fail = (error: Error) => callback(error);
          socket.once('error', fail);
          socket.once('connect', () => {
            socket.off('error', fail);
            callback(null, { connection: socket });
          });
        },
      })
    : nodemailer.createTransport({ url: options.smtpUrl, ...SMTP_TIMEOUTS });
  return {
    async send(mail) {
      const { from } = options;
      await transport.sendMail({ from: typeof from === 'string' ? from : from(), ...mail });
    },
    close() {
      transport.close();
    },
  };
}

export type SmtpFailure = { kind: 'temporary' | 'permanent'; message: string };

/**
 * What a failed send means for the next attempt. A 5xx answer is the server's final word (no such
 * mailbox, refused): permanent. A 4xx answer (mailbox busy, greylisting, try later) and anything
 * that is not an answer at all (connection refused or lost, a timeout) is temporary: try again.
 */
export function classifySmtpFailure(error: unknown): SmtpFailure {
  const { responseCode, response, message } = error as {
    responseCode?: number;
    response?: string;
    message?: string;
  };
  const text = (response ?? message ?? String(error)).slice(0, 500);
  if (typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600) {
    return { kind: 'permanent', message: text };
  }
  return { kind: 'temporary', message: text };
}
