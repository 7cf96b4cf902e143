import type { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
  /** The HTML part, when the mail has one. */
  html: string | null;
  /** Every header, names lower-cased, values as sent (folded lines unfolded). */
  headers: Map<string, string>;
}

/** An SMTP answer the capture gives instead of accepting a recipient (see `refuse`). */
interface Refusal {
  code: number;
  message: string;
  /** How many more times; Infinity for always. */
  times: number;
}

/**
 * A real SMTP server on a loopback port that keeps every message it receives. It can refuse a
 * recipient with a temporary (4xx) or permanent (5xx) answer, and hold its replies to the final
 * dot of each message (to stop a sender at a chosen moment). With `parse: false` it only counts
 * the envelope's recipients: fast enough for thousands of mails a second.
 */
export class SmtpCapture {
  readonly mails: CapturedMail[] = [];
  /** Every recipient of every accepted message, in order (the envelope's RCPT TO). */
  readonly recipients: string[] = [];
  private readonly refusals = new Map<string, Refusal>();
  private readonly listeners = new Set<(recipient: string) => void>();
  private held: Promise<void> | null = null;
  private releaseHeld: (() => void) | null = null;
  private readonly server: SMTPServer;
  url = '';

  constructor(private readonly options: { parse?: boolean } = {}) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      disableReverseLookup: true,
      // Many concurrent senders (a newsletter's pool).
      maxClients: 1000,
      onRcptTo: (address, _session, callback) => {
        const refusal = this.refusals.get(address.address.toLowerCase());
        if (refusal && refusal.times > 0) {
          refusal.times -= 1;
          const error = Object.assign(new Error(refusal.message), {
            responseCode: refusal.code,
          });
          callback(error);
          return;
        }
        callback();
      },
      onClose: (session) => {
        this.closedSessions.add(session.id);
      },
      onData: (stream, session, callback) => {
        this.receive(stream, session).then(
          (accepted) => (accepted ? callback() : callback(new Error('connection lost'))),
          (error: unknown) => callback(error as Error),
        );
      },
    });
  }

  private async receive(stream: Readable, session: SMTPServerSession): Promise<boolean> {
    const envelope = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
    let mail: CapturedMail | null = null;
    if (this.options.parse === false) {
      for await (const chunk of stream) void chunk;
    } else {
      const parsed = await simpleParser(stream);
      const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
      const headers = new Map<string, string>();
      for (const line of parsed.headerLines) {
        headers.set(
          line.key,
          line.line
            .slice(line.line.indexOf(':') + 1)
            .replace(/\r?\n\s+/g, ' ')
            .trim(),
        );
      }
      mail = {
        to: to?.text ?? '',
        subject: parsed.subject ?? '',
        text: parsed.text ?? '',
        html: typeof parsed.html === 'string' ? parsed.html : null,
        headers,
      };
    }
    // Held: the sender has sent the whole message and waits for our answer. A message whose
    // sender is gone before we answer was never accepted (RFC 5321 4.1.1.4): it is not kept.
    if (this.held) {
      await this.held;
      if (this.closedSessions.has(session.id)) return false;
    }
    if (mail) this.mails.push(mail);
    for (const recipient of envelope) {
      this.recipients.push(recipient);
      for (const listener of this.listeners) listener(recipient);
    }
    return true;
  }

  private readonly closedSessions = new Set<string>();

  async start(): Promise<this> {
    this.server.on('error', () => {});
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    this.url = `smtp://127.0.0.1:${port}`;
    return this;
  }

  stop(): Promise<void> {
    this.release();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Answers RCPT TO for `address` with `code` (4xx: try later; 5xx: never) the next `times`
   * times, then accepts it again.
   */
  refuse(address: string, code: number, times = Infinity): void {
    const message = code >= 500 ? 'No such mailbox here' : 'Mailbox busy, try again later';
    this.refusals.set(address.toLowerCase(), { code, message, times });
  }

  /** From now on, answer no message's final dot until `release()`. */
  hold(): void {
    this.held ??= new Promise((resolve) => (this.releaseHeld = resolve));
  }

  release(): void {
    this.releaseHeld?.();
    this.held = null;
    this.releaseHeld = null;
  }

  /** Calls `listener` with each recipient of each message as it is accepted. */
  onRecipient(listener: (recipient: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  mailsTo(address: string): CapturedMail[] {
    return this.mails.filter((mail) => mail.to === address);
  }
}
