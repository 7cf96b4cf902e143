import type pg from 'pg';
import {
  GIFT_CLAIM_PATH,
  GIFT_DAYS,
  type DeskGift,
  type GiftPreview,
} from '../../../contract/gifts.js';
import { formatMoney } from '../../../contract/plan-rules.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import { DomainError } from '../domain-error.js';
import { hashLinkToken, newLinkToken } from '../mail/link-tokens.js';
import type { Mail, Mailer } from '../mail/mailer.js';

/**
 * Gifts after their payment (docs/decisions/0024-gifts-and-solidarity-seats.md): the mail each one
 * is owed (the buyer's receipt, the recipient's claim link at the send date, the buyer's notice
 * once claimed), the claim page's preview, and the desk's list of gifts not yet claimed. The money
 * (the payment's state, the claim's period) is in gift-ledger.ts.
 */

export interface GiftMailDeps {
  pool: pg.Pool;
  mailer: Mailer;
  siteUrl: string;
  siteName: string;
  log: { error(object: object, message: string): void };
}

interface GiftRow {
  id: string;
  paymentIntentId: string;
  buyerEmail: string | null;
  fromName: string | null;
  recipientEmail: string;
  message: string | null;
  sendAt: Date;
  amountCents: number;
  currency: string;
  paidAt: Date;
  state: string;
  sentAt: Date | null;
  sentTo: string | null;
  claimedAt: Date | null;
  /** The slug and name of the tier whose year it gives. */
  tier: string;
  tierName: string;
}

const COLUMNS = `id, "paymentIntentId", "buyerEmail", "fromName", "recipientEmail", message,
                 "sendAt", "amountCents", currency, "paidAt", state::text, "sentAt", "sentTo",
                 "claimedAt",
                 (SELECT t."slug" FROM "tiers" t WHERE t."id" = gifts."tierId") AS tier,
                 (SELECT t."name" FROM "tiers" t WHERE t."id" = gifts."tierId") AS "tierName"`;

const longDate = (date: Date) =>
  date.toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

export const giftClaimLink = (siteUrl: string, token: string) =>
  `${siteUrl}${GIFT_CLAIM_PATH}#token=${token}`;

function recipientMail(gift: GiftRow, token: string, site: GiftMailDeps): Mail {
  const from = gift.fromName ?? 'Someone';
  const message = gift.message ? `\n\nTheir message:\n\n${gift.message}\n` : '\n';
  return {
    to: gift.recipientEmail,
    subject: `${from} gave you a year of ${site.siteName}`,
    text:
      `${from} gave you a year of membership to ${site.siteName}.${message}\n` +
      `Open this link to claim it. Sign in or create an account there, and your year starts when ` +
      `you claim it (after any membership you already have):\n\n` +
      `${giftClaimLink(site.siteUrl, token)}\n\n` +
      `The link is for you only: whoever opens it first can claim the gift.\n`,
  };
}

function receiptMail(gift: GiftRow, site: GiftMailDeps): Mail {
  const when =
    gift.sendAt.getTime() <= gift.paidAt.getTime() + 60_000
      ? 'We are mailing them the claim link now.'
      : `We will mail them the claim link on ${longDate(gift.sendAt)}.`;
  return {
    to: gift.buyerEmail ?? '',
    subject: `Your gift of ${site.siteName} to ${gift.recipientEmail}: receipt`,
    text:
      `Thank you. You gave a year of ${site.siteName} to ${gift.recipientEmail}.\n\n` +
      `Paid: ${formatMoney(gift.amountCents, gift.currency)} on ${longDate(gift.paidAt)}\n` +
      `Payment reference: ${gift.paymentIntentId}\n\n` +
      `${when} We will tell you when they claim it.\n`,
  };
}

function claimedMail(gift: GiftRow, site: GiftMailDeps): Mail {
  return {
    to: gift.buyerEmail ?? '',
    subject: `Your gift of ${site.siteName} was claimed`,
    text:
      `${gift.recipientEmail} claimed the year of ${site.siteName} you gave them` +
      `${gift.claimedAt ? `, on ${longDate(gift.claimedAt)}` : ''}. Thank you for it.\n`,
  };
}

/** Which mail a gift is owed, as a condition on its row ($2: now, for the claim link). */
const DUE = {
  receipt: `"receiptSentAt" IS NULL AND "buyerEmail" IS NOT NULL
            AND state IN ('active', 'suspended')`,
  link: `"sentAt" IS NULL AND "sendAt" <= $2 AND state = 'active' AND "claimedAt" IS NULL`,
  notice: `"claimedAt" IS NOT NULL AND "claimNoticeSentAt" IS NULL AND "buyerEmail" IS NOT NULL`,
} as const;
type MailKind = keyof typeof DUE;

/** Mails the recipient a new claim link: the old one (if any) stops working. Inside `tx`. */
async function sendClaimLink(tx: Tx, gift: GiftRow, deps: GiftMailDeps): Promise<void> {
  const token = newLinkToken();
  await deps.mailer.send(recipientMail(gift, token, deps));
  await tx.query(
    `UPDATE gifts SET "tokenHash" = $2, "sentAt" = now(), "sentTo" = "recipientEmail",
                      "updatedAt" = now()
     WHERE id = $1`,
    [gift.id, hashLinkToken(token)],
  );
}

async function sendOne(tx: Tx, kind: MailKind, gift: GiftRow, deps: GiftMailDeps): Promise<void> {
  if (kind === 'link') return sendClaimLink(tx, gift, deps);
  const mail = kind === 'receipt' ? receiptMail(gift, deps) : claimedMail(gift, deps);
  await deps.mailer.send(mail);
  const column = kind === 'receipt' ? '"receiptSentAt"' : '"claimNoticeSentAt"';
  await tx.query(`UPDATE gifts SET ${column} = now(), "updatedAt" = now() WHERE id = $1`, [
    gift.id,
  ]);
}

/** At most this many mails of a kind per sweep: the next sweep goes on. */
const SWEEP_LIMIT = 200;

export interface GiftMailReport {
  sent: number;
  failed: number;
}

/**
 * Sends every gift mail that is due, each gift in a transaction of its own holding its row (two
 * app servers never send one mail twice; a mail the server refuses is tried again at the next
 * sweep, and the rest go on). Receipts first, then claim links, then claimed notices.
 */
export async function deliverGiftMails(
  deps: GiftMailDeps,
  now = new Date(),
): Promise<GiftMailReport> {
  const report: GiftMailReport = { sent: 0, failed: 0 };
  for (const kind of Object.keys(DUE) as MailKind[]) {
    const tried: string[] = [];
    while (tried.length < SWEEP_LIMIT) {
      const outcome = await withTransaction(deps.pool, async (tx) => {
        const { rows } = await tx.query<GiftRow>(
          `SELECT ${COLUMNS} FROM gifts
           WHERE ${DUE[kind]} AND NOT (id = ANY($1::uuid[]))
           ORDER BY "sendAt", id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          kind === 'link' ? [tried, now] : [tried],
        );
        const gift = rows[0];
        if (!gift) return 'none' as const;
        tried.push(gift.id);
        try {
          await sendOne(tx, kind, gift, deps);
          return 'sent' as const;
        } catch (error) {
          deps.log.error({ err: error, giftId: gift.id }, `could not send a gift's ${kind} mail`);
          return 'failed' as const;
        }
      });
      if (outcome === 'none') break;
      report[outcome] += 1;
    }
  }
  return report;
}

/**
 * What the claim page shows for a link's token; why it cannot be claimed (its payment taken back,
 * or disputed); null: no gift has this token (or no longer: a newer link was sent).
 */
export async function previewGift(
  pool: pg.Pool,
  token: string,
  userId: string | null,
): Promise<GiftPreview | 'refunded' | 'disputed' | null> {
  const { rows } = await pool.query<{
    fromName: string | null;
    message: string | null;
    state: string;
    claimedBy: string | null;
  }>(`SELECT "fromName", message, state::text, "claimedBy" FROM gifts WHERE "tokenHash" = $1`, [
    hashLinkToken(token),
  ]);
  const gift = rows[0];
  if (!gift) return null;
  if (!gift.claimedBy && gift.state === 'suspended') return 'disputed';
  if (!gift.claimedBy && gift.state !== 'active') return 'refunded';
  return {
    fromName: gift.fromName,
    message: gift.message,
    state: gift.claimedBy ? 'claimed' : 'ready',
    claimedByYou: gift.claimedBy !== null && gift.claimedBy === userId,
    days: GIFT_DAYS,
  };
}

const toDeskGift = (row: GiftRow & { buyerEmail: string | null }): DeskGift => ({
  id: row.id,
  recipientEmail: row.recipientEmail,
  buyerEmail: row.buyerEmail,
  fromName: row.fromName,
  amountCents: row.amountCents,
  currency: row.currency,
  tier: row.tier,
  tierName: row.tierName,
  paidAt: row.paidAt.toISOString(),
  sendAt: row.sendAt.toISOString(),
  sentAt: row.sentAt?.toISOString() ?? null,
  sentTo: row.sentTo,
  state: row.state,
  paymentIntentId: row.paymentIntentId,
});

const UNCLAIMED = `"claimedAt" IS NULL AND state IN ('active', 'suspended')`;

/** Gifts paid for and not claimed (nor taken back), newest first. */
export async function listUnclaimedGifts(pool: pg.Pool): Promise<DeskGift[]> {
  const { rows } = await pool.query<GiftRow>(
    `SELECT ${COLUMNS} FROM gifts WHERE ${UNCLAIMED} ORDER BY "paidAt" DESC, id LIMIT 500`,
  );
  return rows.map(toDeskGift);
}

const notUnclaimed = () =>
  new DomainError(
    404,
    'not_found',
    'No unclaimed gift has this id: it was claimed or refunded since, or never existed.',
  );

/**
 * An owner mails a gift's claim link again, or to a new address (`recipientEmail`): either way a
 * new link, so the one mailed before stops working. A gift whose send date is ahead and that was
 * never mailed only changes its address: the link goes out at the date, as the buyer chose.
 */
export async function resendGift(
  deps: GiftMailDeps,
  staff: Pick<Staff, 'userId' | 'email'>,
  input: { giftId: string; recipientEmail?: string },
): Promise<{ gift: DeskGift; mailed: boolean }> {
  return withTransaction(deps.pool, async (tx) => {
    const { rows } = await tx.query<GiftRow>(
      `SELECT ${COLUMNS} FROM gifts WHERE id = $1 AND ${UNCLAIMED} FOR UPDATE`,
      [input.giftId],
    );
    const gift = rows[0];
    if (!gift) throw notUnclaimed();
    const before = gift.recipientEmail;
    if (input.recipientEmail) {
      await tx.query(`UPDATE gifts SET "recipientEmail" = $2, "updatedAt" = now() WHERE id = $1`, [
        gift.id,
        input.recipientEmail,
      ]);
      gift.recipientEmail = input.recipientEmail;
    }
    const due = gift.sentAt !== null || gift.sendAt.getTime() <= Date.now();
    if (due && gift.state !== 'active') {
      throw new DomainError(
        409,
        'gift_disputed',
        'The payment for this gift is disputed: its link can be sent once the dispute is won.',
      );
    }
    if (due) {
      await sendClaimLink(tx, gift, deps).catch((error: unknown) => {
        deps.log.error({ err: error, giftId: gift.id }, 'could not mail a gift again');
        throw new DomainError(
          502,
          'mail_failed',
          'The mail server did not take the mail: nothing changed. Try again in a moment.',
        );
      });
    }
    const { rows: after } = await tx.query<GiftRow>(`SELECT ${COLUMNS} FROM gifts WHERE id = $1`, [
      gift.id,
    ]);
    const updated = after[0];
    if (!updated) throw notUnclaimed();
    await writeAudit(tx, staff, {
      action: input.recipientEmail ? 'gift_address' : 'gift_resend',
      targetUserId: null,
      before: { giftId: gift.id, recipientEmail: before, sentAt: gift.sentAt },
      after: { giftId: gift.id, recipientEmail: updated.recipientEmail, mailed: due },
    });
    return { gift: toDeskGift(updated), mailed: due };
  });
}
