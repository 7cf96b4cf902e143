// A members list as a CSV, told apart by its header: Ghost's members export, or Substack's
// subscriber list (who pays, who has a comp) or its sign-up list (everyone on the newsletter).
import { parse } from 'csv-parse/sync';
import { ImportFileError, type SourceBundle, type SourceMember } from './source.js';
import { emptyBundle, keepFirstOfEachEmail, parseDate } from './source-values.js';

type CsvRow = Record<string, string>;
type Kind = 'ghost' | 'substack-subscribers' | 'substack-signups';

const HEADERS: Record<Kind, { required: string[]; shown: string }> = {
  ghost: {
    required: ['email', 'subscribed_to_emails'],
    shown:
      'email, name, note, subscribed_to_emails, complimentary_plan, stripe_customer_id, created_at, deleted_at, labels',
  },
  'substack-subscribers': {
    required: ['email', 'expiry', 'email_disabled', 'type'],
    shown: 'email, expiry, email_disabled, prefer_digests, stripe_connected_customer_id, type',
  },
  'substack-signups': {
    required: ['email', 'active_subscription', 'email_disabled'],
    shown: 'email, active_subscription, expiry, email_disabled, prefer_digests, created_at',
  },
};

function kindOf(columns: string[]): Kind | null {
  for (const kind of Object.keys(HEADERS) as Kind[]) {
    if (HEADERS[kind].required.every((column) => columns.includes(column))) return kind;
  }
  return null;
}

function isTrue(value: string | undefined): boolean {
  return /^(true|t|1|yes)$/i.test((value ?? '').trim());
}

function optional(value: string | undefined): string | undefined {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? undefined : trimmed;
}

function fromGhost(row: CsvRow): SourceMember | 'deleted' {
  if (optional(row.deleted_at)) return 'deleted';
  const member: SourceMember = {
    email: (row.email ?? '').trim(),
    subscribed: isTrue(row.subscribed_to_emails),
    labels: (row.labels ?? '')
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean),
  };
  const name = optional(row.name);
  const note = optional(row.note);
  const customer = optional(row.stripe_customer_id);
  const createdAt = parseDate(row.created_at);
  if (name) member.name = name;
  if (note) member.note = note;
  if (customer) member.stripeCustomerId = customer;
  if (createdAt) member.createdAt = createdAt;
  // Ghost's CSV gives a comp no end date: it lasts until someone ends it.
  if (isTrue(row.complimentary_plan)) member.comp = { until: null };
  return member;
}

/** What every Substack file says of a reader: the address, and whether mail goes to it. */
const substackMember = (row: CsvRow): SourceMember => ({
  email: (row.email ?? '').trim(),
  subscribed: !isTrue(row.email_disabled),
  labels: [],
});

function fromSubstackSubscriber(row: CsvRow): SourceMember {
  const member = substackMember(row);
  const customer = optional(row.stripe_connected_customer_id);
  if (customer) member.stripeCustomerId = customer;
  // A comp, and a gift someone else paid for, give access until the subscription's expiry;
  // one already expired grants nothing (the members writer decides that from the date).
  const type = (row.type ?? '').trim().toLowerCase();
  if (type === 'comp' || type === 'gift') member.comp = { until: parseDate(row.expiry) ?? null };
  return member;
}

function fromSubstackSignup(row: CsvRow): SourceMember {
  const member = substackMember(row);
  const createdAt = parseDate(row.created_at);
  if (createdAt) member.createdAt = createdAt;
  return member;
}

interface CsvRecord {
  record: CsvRow;
  info: { lines: number };
}

/** A members CSV's text as a bundle with members only. */
export function readMembersCsv(text: string): SourceBundle {
  let records: CsvRecord[];
  let columns: string[] = [];
  try {
    records = parse(text, {
      columns: (header: string[]) => (columns = header.map((name) => name.trim().toLowerCase())),
      skip_empty_lines: true,
      relax_column_count: true,
      bom: true,
      info: true,
    }) as unknown as CsvRecord[];
  } catch (error) {
    const lines = error instanceof Error && 'lines' in error ? Number(error.lines) : undefined;
    throw new ImportFileError(
      `Not a readable CSV file: ${(error as Error).message}`,
      lines ? `line ${lines}` : undefined,
    );
  }
  const kind = kindOf(columns);
  if (!kind) {
    throw new ImportFileError(
      `Not a members CSV Cohort knows. Expected Ghost's header (${HEADERS.ghost.shown}), ` +
        `Substack's subscribers (${HEADERS['substack-subscribers'].shown}) or Substack's sign-ups ` +
        `(${HEADERS['substack-signups'].shown}); this file's header is: ${columns.join(', ') || '(empty)'}`,
      'line 1',
    );
  }
  const bundle = emptyBundle('members');
  const rows: { member: SourceMember; where: string }[] = [];
  for (const { record, info } of records) {
    const where = `row ${info.lines}`;
    if (kind === 'ghost') {
      const member = fromGhost(record);
      if (member === 'deleted')
        bundle.skipped.push({
          item: (record.email ?? '').trim() || where,
          reason: `${where}: deleted on Ghost (deleted_at is set)`,
        });
      else rows.push({ member, where });
    } else {
      rows.push({
        member:
          kind === 'substack-subscribers'
            ? fromSubstackSubscriber(record)
            : fromSubstackSignup(record),
        where,
      });
    }
  }
  bundle.members = keepFirstOfEachEmail(rows, bundle.skipped);
  return bundle;
}
