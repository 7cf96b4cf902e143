import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

interface Logger {
  info(object: object, message: string): void;
}

/**
 * Outgoing mail through `SMTP_URL` (nodemailer). Without it, mail is written to the log, so a
 * developer can still follow a password-reset link.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  log: Logger;
}): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(mail) {
        options.log.info(
          { mail },
          `mail to ${mail.to} (SMTP_URL is not set, so it is logged instead)`,
        );
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
    },
    close() {
      transport.close();
    },
  };
}
