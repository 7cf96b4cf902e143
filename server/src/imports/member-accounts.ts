import { randomUUID } from 'node:crypto';
import {
  hasControlCharacters,
  isValidEmail,
  normalizeEmail,
} from '../../../contract/account-rules.js';
import { cleanLine, cleanProse } from '../../../contract/text-hygiene.js';
import type { Tx } from '../db/transaction.js';
import { recordMemberEvent } from '../outbox/webhook-events.js';
import type { SourceMember } from './source.js';

// Accounts and consent for an import's members (import-members.ts): each member's row of the
// file made fit to keep, the account it becomes or already is, and the newsletter consent it
// gave on the old platform.

/**
 * A name, note or label as the file (or the Admin API) has it, cleaned by the site's text rule
 * (contract/text-hygiene.ts: a note keeps its lines); null when nothing is left.
 */
export function cleanText(value: string | undefined, keepLines: boolean): string | null {
  const cleaned = keepLines ? cleanProse(value ?? '') : cleanLine(value ?? '');
  return cleaned === '' ? null : cleaned;
}

export interface PreparedMember {
  email: string;
  name: string | null;
  note: string | null;
  labels: string[];
  subscribed: boolean;
  comp: SourceMember['comp'];
  createdAt: Date | null;
  stripeCustomerId: string | null;
}

export function prepareMember(member: SourceMember, now: Date): PreparedMember | string {
  // Around the address, a line's end or a tab is the file's layout, not part of it.
  const email = normalizeEmail(member.email);
  if (hasControlCharacters(email)) return 'the address holds control characters';
  if (!isValidEmail(email)) return 'not a valid email address';
  const createdAt =
    member.createdAt && !Number.isNaN(member.createdAt.getTime()) && member.createdAt <= now
      ? member.createdAt
      : null;
  const labels = [
    ...new Set(member.labels.map((label) => cleanText(label, false)).filter((l) => l !== null)),
  ];
  return {
    email,
    name: cleanText(member.name, false),
    note: cleanText(member.note, true),
    labels,
    subscribed: member.subscribed,
    comp: member.comp,
    createdAt,
    stripeCustomerId: member.stripeCustomerId?.trim() || null,
  };
}

export type Outcome = 'created' | 'updated' | 'unchanged';

export interface AccountRow {
  id: string;
  name: string | null;
  note: string | null;
  labels: string[];
  proven: boolean;
  hasPassword: boolean;
}

/** What is here, unless it is empty: then the file's. */
const fillEmpty = (here: string | null, file: string | null) =>
  here !== null && here.trim() !== '' ? here : (file ?? here);

/**
 * The member's account: made (no password, the address not proven: its owner proves it by the
 * first sign-in with a mailed link or code, the only way an account without a password signs in),
 * or the one the address has, with its name and note filled only where empty and the file's labels
 * added. Its join date is the earliest either side knows: Substack's subscriber list has no dates
 * and its sign-up list has them, so whichever comes second, the account ends with the real one.
 * Answers the account and whether this made or changed it.
 */
export async function writeAccount(
  tx: Tx,
  member: PreparedMember,
): Promise<{ account: AccountRow; outcome: Outcome }> {
  const select = `SELECT id, name, note, labels, "emailVerifiedAt" IS NOT NULL AS proven,
                         "passwordHash" IS NOT NULL AS "hasPassword", "createdAt"
                  FROM users WHERE email = $1`;
  const found = await tx.query<AccountRow & { createdAt: Date }>(`${select} FOR UPDATE`, [
    member.email,
  ]);
  const existing = found.rows[0];
  if (!existing) {
    const id = randomUUID();
    // Session version 1, as a registration makes: 0 is an anonymous visitor's.
    const inserted = await tx.query(
      `INSERT INTO users (id, email, name, note, labels, "sessionVersion", "createdAt", "updatedAt")
       VALUES ($1, $2, $3, $4, $5, 1, COALESCE($6, now()), now())
       ON CONFLICT (email) DO NOTHING`,
      [id, member.email, member.name, member.note, member.labels, member.createdAt],
    );
    if (inserted.rowCount === 1) {
      await recordMemberEvent(tx, 'member.added', id);
      return {
        account: {
          id,
          name: member.name,
          note: member.note,
          labels: member.labels,
          proven: false,
          hasPassword: false,
        },
        outcome: 'created',
      };
    }
    // Made by a sign-up at this very moment: that account is the member's.
    return writeAccount(tx, member);
  }
  const name = fillEmpty(existing.name, member.name);
  const note = fillEmpty(existing.note, member.note);
  const labels = [...new Set([...existing.labels, ...member.labels])];
  const createdAt =
    member.createdAt && member.createdAt < existing.createdAt
      ? member.createdAt
      : existing.createdAt;
  if (
    name === existing.name &&
    note === existing.note &&
    labels.length === existing.labels.length &&
    createdAt === existing.createdAt
  ) {
    return { account: existing, outcome: 'unchanged' };
  }
  await tx.query(
    `UPDATE users SET name = $2, note = $3, labels = $4, "createdAt" = $5, "updatedAt" = now()
     WHERE id = $1`,
    [existing.id, name, note, labels, createdAt],
  );
  return { account: { ...existing, name, note, labels }, outcome: 'updated' };
}

/**
 * Consent given on the old platform: the address is on the newsletter, confirmed. An address
 * already here keeps its state (unsubscribed stays unsubscribed; an import never unsubscribes
 * anyone), except a sign-up still waiting for its confirmation, which the file confirms. The row
 * is the account's only when the account proved its address (docs/decisions/0014); otherwise the
 * first sign-in by link claims it (accounts/proven-address.ts). Answers whether anything changed.
 */
export async function writeConsent(tx: Tx, account: AccountRow, email: string): Promise<boolean> {
  const { rows } = await tx.query<{ id: string; state: string }>(
    'SELECT id, state FROM newsletter_subscribers WHERE email = $1 FOR UPDATE',
    [email],
  );
  const existing = rows[0];
  if (existing) {
    if (existing.state !== 'pending') return false;
    await tx.query(
      `UPDATE newsletter_subscribers
       SET state = 'confirmed', "confirmedAt" = now(), "unsubscribedAt" = NULL,
           "confirmTokenHash" = NULL, "confirmExpiresAt" = NULL, "updatedAt" = now()
       WHERE id = $1`,
      [existing.id],
    );
    return true;
  }
  await tx.query(
    `INSERT INTO newsletter_subscribers (id, email, "userId", state, "confirmedAt", "updatedAt")
     VALUES ($1, $2,
             CASE WHEN $4::boolean AND NOT EXISTS (
                    SELECT 1 FROM newsletter_subscribers WHERE "userId" = $3::uuid)
                  THEN $3::uuid END,
             'confirmed', now(), now())`,
    [randomUUID(), email, account.id, account.proven],
  );
  return true;
}
