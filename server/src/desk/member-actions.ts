import { createPasswordReset, passwordResetMail } from '../accounts/accounts.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import type { Mailer } from '../mail/mailer.js';
import { endComp, grantComp } from '../memberships/comps.js';
import { isMembershipActive, type MembershipState } from '../memberships/memberships.js';
import { defaultTier, readTiers, tierBySlug } from '../memberships/tier-catalog.js';
import type { Services } from '../services.js';
import type { StripeEventDeps } from '../stripe/handle-stripe-event.js';
import { reconcileUser } from '../stripe/reconcile.js';
import { lastDayOf } from '../../../contract/last-day.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';

/**
 * What an owner can do to one member from the desk. Each change and its audit entry commit
 * together; membership rules stay in the memberships module (comps) and the Stripe module (the
 * re-read), account rules in the accounts module (the reset mail).
 */

type Actor = Pick<Staff, 'userId' | 'email'>;

interface MembershipSnapshot {
  plan: string;
  status: string;
  expiresAt: string;
  isMember: boolean;
}

/** The member's membership as the audit log records it. */
async function membershipSnapshot(tx: Tx, userId: string): Promise<MembershipSnapshot | null> {
  const { rows } = await tx.query<MembershipState>(
    `SELECT plan::text AS plan, status, "expiresAt" FROM memberships WHERE "userId" = $1`,
    [userId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    plan: row.plan,
    status: row.status,
    expiresAt: row.expiresAt.toISOString(),
    isMember: isMembershipActive(row),
  };
}

/** `YYYY-MM-DD` is the comp's last day, through its end (UTC); a date-time is taken as it is. */
export function parseCompEnd(text: string): Date {
  const invalid = () =>
    new DomainError(400, 'invalid_end_date', 'Give the end date as YYYY-MM-DD (a real date).');
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) {
    const start = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
    if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== text) throw invalid();
    return new Date(start.getTime() + 24 * 60 * 60 * 1000);
  }
  const date = /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(text)
    ? new Date(text)
    : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw invalid();
  return date;
}

/** "2027-01-23 00:00 UTC". */
const describeMoment = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
/** "through 2027-11-24": the last day of a period ending at `end` (exclusive), or its moment. */
const describeEnd = (end: Date) =>
  end.getUTCHours() + end.getUTCMinutes() + end.getUTCSeconds() + end.getUTCMilliseconds() === 0
    ? `through ${lastDayOf(end)}`
    : `until ${describeMoment(end)}`;

/**
 * Grants a comp of the tier `input.tier` names (any tier, hidden ones too; the default tier when
 * left out) until the day `input.until` says, with its audit entry.
 */
export async function grantCompAsStaff(
  { db }: Pick<Services, 'db'>,
  actor: Actor,
  input: {
    userId: string;
    until: string;
    reason: string;
    tier?: string | undefined;
    currency: string;
    graceDays: number;
  },
): Promise<string> {
  const until = parseCompEnd(input.until);
  return withTransaction(db.pool, async (tx) => {
    const tiers = await readTiers(tx);
    const tier = input.tier === undefined ? defaultTier(tiers) : tierBySlug(tiers, input.tier);
    const before = await membershipSnapshot(tx, input.userId);
    const comp = await grantComp(
      tx,
      {
        userId: input.userId,
        until,
        reason: input.reason,
        grantedBy: actor.userId,
        currency: input.currency,
        tierId: tier.id,
      },
      { graceDays: input.graceDays },
    );
    const after = await membershipSnapshot(tx, input.userId);
    await writeAudit(tx, actor, {
      action: 'comp_grant',
      targetUserId: input.userId,
      before: { membership: before },
      after: { membership: after, comp: { ...comp, tier: tier.slug } },
    });
    const what = tiers.length > 1 ? `${tier.name} comp` : 'Comp';
    return `${what} granted ${describeEnd(comp.periodEnd)}: a member ${describeEnd(new Date(after?.expiresAt ?? comp.periodEnd))}.`;
  });
}

export async function endCompAsStaff(
  { db }: Pick<Services, 'db'>,
  actor: Actor,
  input: { userId: string; compId: string; graceDays: number },
): Promise<string> {
  return withTransaction(db.pool, async (tx) => {
    const before = await membershipSnapshot(tx, input.userId);
    const ended = await endComp(tx, input, { graceDays: input.graceDays });
    const after = await membershipSnapshot(tx, input.userId);
    await writeAudit(tx, actor, {
      action: 'comp_end',
      targetUserId: input.userId,
      before: { membership: before, comp: ended.before },
      after: { membership: after, comp: ended.after },
    });
    return after?.isMember
      ? `Comp ended; still a member ${describeEnd(new Date(after.expiresAt))} from what was paid.`
      : 'Comp ended: no longer a member.';
  });
}

/** Re-reads the member's payments from Stripe now, through the reconcile code, and audits it. */
export async function rereadFromStripe(
  deps: StripeEventDeps,
  actor: Actor,
  userId: string,
): Promise<string> {
  const { rowCount } = await deps.db.pool.query('SELECT 1 FROM users WHERE id = $1', [userId]);
  if (!rowCount) throw new DomainError(404, 'member_not_found', 'There is no such member.');
  const report = await reconcileUser(deps, userId);
  await withTransaction(deps.db.pool, (tx) =>
    writeAudit(tx, actor, {
      action: 'stripe_reread',
      targetUserId: userId,
      before: { membership: report.before },
      after: {
        membership: report.after,
        subscriptionsRead: report.subscriptionsRead,
        paymentsRead: report.paymentsRead,
        failures: report.failures,
      },
    }),
  );
  const changed =
    JSON.stringify(report.before) === JSON.stringify(report.after)
      ? 'the membership did not change'
      : `membership: ${describe(report.before)} → ${describe(report.after)}`;
  const read = `Read ${report.subscriptionsRead} subscription(s) and ${report.paymentsRead} early-access payment(s) from Stripe: ${changed}.`;
  if (report.failures.length > 0) {
    throw new DomainError(
      502,
      'stripe_reread_incomplete',
      `${read} Stripe did not answer for ${report.failures.length} item(s): try again in a few minutes.`,
    );
  }
  return read;
}

const describe = (row: { plan: string; status: string; expiresAt: string } | null) =>
  row ? `${row.plan} ${row.status} until ${row.expiresAt.slice(0, 10)}` : 'none';

/**
 * Signs the member out everywhere: every session row goes and the session version moves on, so no
 * cookie of theirs is a session any more. Refused for an anonymous payer, whose only key to the
 * membership is their browser's cookie.
 */
export async function endSessionsAsStaff(
  { db }: Pick<Services, 'db'>,
  actor: Actor,
  userId: string,
): Promise<string> {
  return withTransaction(db.pool, async (tx) => {
    const { rows } = await tx.query<{ email: string | null; sessionVersion: number }>(
      `SELECT email, "sessionVersion" FROM users WHERE id = $1 FOR UPDATE`,
      [userId],
    );
    const user = rows[0];
    if (!user) throw new DomainError(404, 'member_not_found', 'There is no such member.');
    if (!user.email) {
      throw new DomainError(
        409,
        'anonymous_member',
        'This member has no account: their browser’s cookie is their only way back to what they paid. Nothing was ended.',
      );
    }
    const ended = await tx.query('DELETE FROM sessions WHERE "userId" = $1', [userId]);
    await tx.query(
      `UPDATE users SET "sessionVersion" = "sessionVersion" + 1, "updatedAt" = now() WHERE id = $1`,
      [userId],
    );
    await writeAudit(tx, actor, {
      action: 'sessions_end',
      targetUserId: userId,
      before: { sessions: ended.rowCount ?? 0, sessionVersion: user.sessionVersion },
      after: { sessions: 0, sessionVersion: user.sessionVersion + 1 },
    });
    return `Signed out of ${ended.rowCount ?? 0} browser(s).`;
  });
}

/** Mails the member a password-reset link (the same mail as "Forgot your password?"). */
export async function sendPasswordResetAsStaff(
  deps: Pick<Services, 'db' | 'log'> & { mailer: Mailer; siteUrl: string; siteName: string },
  actor: Actor,
  userId: string,
): Promise<string> {
  const user = await deps.db.prisma.user.findUnique({
    where: { id: userId },
    select: { email: true },
  });
  if (!user) throw new DomainError(404, 'member_not_found', 'There is no such member.');
  const reset = user.email ? await createPasswordReset(deps, { email: user.email }) : null;
  if (!reset) {
    throw new DomainError(409, 'no_password', 'This member has no account with a password.');
  }
  try {
    await deps.mailer.send(passwordResetMail(reset, deps));
  } catch (error) {
    deps.log.error({ err: error }, 'could not send a password-reset mail from the desk');
    throw new DomainError(
      502,
      'mail_failed',
      'The mail server did not take the message: check SMTP_URL and the log, then try again.',
    );
  }
  await withTransaction(deps.db.pool, (tx) =>
    writeAudit(tx, actor, {
      action: 'password_reset_sent',
      targetUserId: userId,
      before: null,
      after: { to: reset.email },
    }),
  );
  return `A password-reset link went to ${reset.email}; it works once, for an hour.`;
}
