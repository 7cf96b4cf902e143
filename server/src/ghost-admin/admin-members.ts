import type pg from 'pg';
import type { GhostMemberInput } from '../../../contract/ghost-admin-api.js';
import { isValidEmail, normalizeEmail } from '../../../contract/account-rules.js';
import { MAX_AUTHOR_NAME } from '../../../contract/authors.js';
import type { Database } from '../db/database.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { writeAudit } from '../staff/audit.js';
import { DomainError } from '../domain-error.js';
import { cleanText, writeAccount, writeConsent } from '../imports/member-accounts.js';
import type { Mail } from '../mail/mailer.js';
import { signUpMail } from '../newsletter/sign-up-mail.js';
import { subscribe } from '../newsletter/subscribers.js';
import { memberJsonSql } from '../outbox/webhook-events.js';
import type { AdminCaller } from './admin-caller.js';

/**
 * Members through Ghost's Admin API (docs/ghost-api.md#admin-api), for tools that sync
 * subscribers: browse (by `email:` filter), read, add and edit a member's email, name, note,
 * labels and newsletter consent. A member added here is an account without a password, its
 * address not proven, as an import makes one (imports/member-accounts.ts): its owner signs in by
 * a mailed link or code. Consent (`newsletters: [{…}]` or `subscribed: true`) goes through the
 * newsletter's double opt-in, as the site's own form does (newsletter/subscribers.ts): the address
 * is pending and gets the confirmation mail, unless an integration says it already agreed (as an
 * import's file does): then it is on the newsletter, confirmed. Nothing here touches money.
 */

/** Where members are kept and the confirmation mail comes from. */
export interface AdminMembersSite {
  db: Database;
  siteUrl: string;
  siteName: string;
}

/** A member written, and the confirmation mail to send its address, if one is due. */
export interface AdminMemberWrite {
  member: GhostMember;
  mail: Mail | null;
}

export type GhostMember = Record<string, unknown>;

const invalidMember = (message: string) =>
  new DomainError(400, 'invalid_member', message, { ghostType: 'ValidationError' });
const memberNotFound = () =>
  new DomainError(404, 'not_found', 'Member not found.', { ghostType: 'NotFoundError' });

export async function readGhostMember(db: Pick<pg.Pool, 'query'>, id: string) {
  if (!/^[0-9a-f-]{36}$/.test(id)) throw memberNotFound();
  const { rows } = await db.query<{ json: GhostMember }>(
    `SELECT m.json FROM (${memberJsonSql('$1')}) m WHERE m.json->>'email' IS NOT NULL`,
    [id],
  );
  const member = rows[0]?.json;
  if (!member) throw memberNotFound();
  return member;
}

/** `email:'a@b.c'` (quoted or not): the one filter members/ takes. 400 for any other. */
function emailFilterOf(filter: string | undefined): string | null {
  if (filter === undefined || filter === '') return null;
  const match = /^email:(?:'([^']*)'|"([^"]*)"|([^\s,+'"]+))$/.exec(filter.trim());
  const email = match?.[1] ?? match?.[2] ?? match?.[3];
  if (!email) {
    throw new DomainError(
      400,
      'invalid_filter',
      `Members can be filtered by email only (filter=email:'someone@example.com'), not "${filter}".`,
      { ghostType: 'BadRequestError' },
    );
  }
  return normalizeEmail(email);
}

/** Members with an address, newest first, a page at a time, in Ghost's shape. */
export async function browseGhostMembers(
  db: Pick<pg.Pool, 'query'>,
  query: { filter?: string; limit: number; page: number },
) {
  const email = emailFilterOf(query.filter);
  const { rows } = await db.query<{ id: string; total: number }>(
    `SELECT "id", count(*) OVER ()::int AS total FROM "users"
      WHERE "email" IS NOT NULL AND ($1::text IS NULL OR "email" = $1)
      ORDER BY "createdAt" DESC, "id" LIMIT $2 OFFSET $3`,
    [email, query.limit, (query.page - 1) * query.limit],
  );
  const members = await Promise.all(rows.map((row) => readGhostMember(db, row.id)));
  const total =
    rows[0]?.total ??
    (
      await db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM "users"
          WHERE "email" IS NOT NULL AND ($1::text IS NULL OR "email" = $1)`,
        [email],
      )
    ).rows[0]?.total ??
    0;
  const pages = Math.max(1, Math.ceil(total / query.limit));
  return {
    members,
    meta: {
      pagination: {
        page: query.page,
        limit: query.limit,
        pages,
        total,
        next: query.page < pages ? query.page + 1 : null,
        prev: query.page > 1 ? query.page - 1 : null,
      },
    },
  };
}

interface MemberInput {
  email?: string;
  name?: string | null;
  note?: string | null;
  labels?: string[];
  subscribed?: boolean;
}

/**
 * Ghost's member body, read by its schema at the route (contract/ghost-admin-api.ts), in the
 * site's terms: text cleaned and held to its length, labels as names, consent as `newsletters` or
 * `subscribed`.
 */
function readMemberInput(input: GhostMemberInput): MemberInput {
  const read: MemberInput = {};
  const text = (
    value: string | null | undefined,
    field: string,
    max: number,
    keepLines: boolean,
  ) => {
    if (value === undefined || value === null) return value;
    const cleaned = cleanText(value, keepLines);
    if (cleaned !== null && cleaned.length > max) {
      throw invalidMember(`${field} must be at most ${max} characters.`);
    }
    return cleaned;
  };
  if (input.email !== undefined) {
    const email = normalizeEmail(input.email);
    if (!isValidEmail(email)) throw invalidMember('email must be a valid email address.');
    read.email = email;
  }
  // The name a member's comments and a staff member's byline show: the profile's rule.
  const name = text(input.name, 'name', MAX_AUTHOR_NAME, false);
  if (name !== undefined) read.name = name;
  const note = text(input.note, 'note', 2000, true);
  if (note !== undefined) read.note = note;
  if (input.labels !== undefined) {
    const labels = input.labels.map((label) => {
      const clean = cleanText(typeof label === 'string' ? label : label.name, false);
      if (!clean || clean.length > 191) throw invalidMember('labels must be names or {name}.');
      return clean;
    });
    read.labels = [...new Set(labels)];
  }
  if (input.newsletters !== undefined) read.subscribed = input.newsletters.length > 0;
  if (input.subscribed !== undefined) read.subscribed = input.subscribed;
  return read;
}

async function auditMember(
  tx: Tx,
  caller: AdminCaller,
  action: 'api_member_add' | 'api_member_change',
  userId: string,
  before: unknown,
  after: unknown,
) {
  await writeAudit(
    tx,
    { userId: caller.actor.userId, email: caller.label },
    { action, targetUserId: userId, before, after },
  );
}

/**
 * Whether the caller says the address already agreed to the newsletter (`?send_email=false`): only
 * an integration may (an owner's tool importing a list that gave consent elsewhere), and only
 * when it asks for a subscription; anyone else's address gets the confirmation mail.
 */
function readStatedConsent(
  caller: AdminCaller,
  read: MemberInput,
  alreadyAgreed: boolean,
): boolean {
  if (!alreadyAgreed || read.subscribed !== true) return false;
  if (!caller.integrationId) {
    throw new DomainError(
      403,
      'integrations_only',
      'Only an integration may say an address already agreed (send_email=false): leave it out, and the address gets the confirmation mail.',
      { ghostType: 'NoPermissionError' },
    );
  }
  return true;
}

/**
 * Asks the address to confirm, as the site's sign-up form does (its limit of one mail per address
 * every ten minutes included): the mail to send, or null when it is on the newsletter already or
 * was mailed a moment ago.
 */
async function askToConfirm(site: AdminMembersSite, email: string): Promise<Mail | null> {
  const { rows } = await site.db.pool.query<{ state: string }>(
    `SELECT state FROM newsletter_subscribers WHERE email = $1`,
    [email],
  );
  if (rows[0]?.state === 'confirmed') return null;
  const outcome = await subscribe({ db: site.db }, { email, account: null });
  return outcome.kind === 'check-inbox' && outcome.mail?.kind === 'confirm'
    ? signUpMail(site, outcome.email, outcome.mail)
    : null;
}

/** Takes the address off the newsletter (as its own unsubscribe link would). */
async function unsubscribe(tx: Tx, email: string) {
  await tx.query(
    `UPDATE newsletter_subscribers SET state = 'unsubscribed', "unsubscribedAt" = now(),
        "updatedAt" = now()
      WHERE email = $1 AND state IN ('pending', 'confirmed')`,
    [email],
  );
}

export async function addGhostMember(
  site: AdminMembersSite,
  caller: AdminCaller,
  input: GhostMemberInput,
  options: { alreadyAgreed: boolean },
): Promise<AdminMemberWrite> {
  const { pool } = site.db;
  const read = readMemberInput(input);
  if (!read.email) throw invalidMember('email is required.');
  const email = read.email;
  const agreed = readStatedConsent(caller, read, options.alreadyAgreed);
  const id = await withTransaction(pool, async (tx) => {
    const taken = await tx.query(`SELECT 1 FROM users WHERE email = $1`, [email]);
    if (taken.rows.length > 0) throw invalidMember('Member already exists.');
    const { account } = await writeAccount(tx, {
      email,
      name: read.name ?? null,
      note: read.note ?? null,
      labels: read.labels ?? [],
      subscribed: read.subscribed ?? false,
      comp: undefined,
      createdAt: null,
      stripeCustomerId: null,
    });
    if (agreed) await writeConsent(tx, account, email);
    await auditMember(tx, caller, 'api_member_add', account.id, null, {
      email,
      name: read.name ?? null,
      labels: read.labels ?? [],
      subscribed: read.subscribed ?? false,
      ...consentOf(read, agreed),
    });
    return account.id;
  });
  const mail = read.subscribed && !agreed ? await askToConfirm(site, email) : null;
  return { member: await readGhostMember(pool, id), mail };
}

/** How the audit log says a subscription was asked for. */
const consentOf = (read: MemberInput, agreed: boolean) =>
  read.subscribed ? { consent: agreed ? 'stated by the caller' : 'asked by mail' } : {};

export async function editGhostMember(
  site: AdminMembersSite,
  caller: AdminCaller,
  id: string,
  input: GhostMemberInput,
  options: { alreadyAgreed: boolean },
): Promise<AdminMemberWrite> {
  const { pool } = site.db;
  const before = await readGhostMember(pool, id);
  const read = readMemberInput(input);
  const agreed = readStatedConsent(caller, read, options.alreadyAgreed);
  if (read.email !== undefined && read.email !== before.email) {
    throw invalidMember(
      'email cannot be changed here: the member changes it from their account page.',
    );
  }
  const email = before.email as string;
  await withTransaction(pool, async (tx) => {
    await tx.query(
      `UPDATE users SET name = CASE WHEN $2 THEN $3 ELSE name END,
          note = CASE WHEN $4 THEN $5 ELSE note END,
          labels = CASE WHEN $6 THEN $7::text[] ELSE labels END, "updatedAt" = now()
        WHERE id = $1`,
      [
        id,
        read.name !== undefined,
        read.name ?? null,
        read.note !== undefined,
        read.note ?? null,
        read.labels !== undefined,
        read.labels ?? [],
      ],
    );
    if (agreed) {
      const { rows } = await tx.query<{ proven: boolean }>(
        `SELECT "emailVerifiedAt" IS NOT NULL AS proven FROM users WHERE id = $1`,
        [id],
      );
      const account = {
        id,
        name: null,
        note: null,
        labels: [],
        proven: rows[0]?.proven ?? false,
        hasPassword: false,
      };
      await writeConsent(tx, account, email);
    }
    if (read.subscribed === false) await unsubscribe(tx, email);
    await auditMember(tx, caller, 'api_member_change', id, before, {
      ...read,
      ...consentOf(read, agreed),
    });
  });
  const mail = read.subscribed && !agreed ? await askToConfirm(site, email) : null;
  return { member: await readGhostMember(pool, id), mail };
}
