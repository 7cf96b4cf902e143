import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readMembersCsv } from './members-csv.js';
import { ImportFileError, type SourceMember } from './source.js';

const fixtures = fileURLToPath(
  new URL('../../../tests/fixtures/imports/members/', import.meta.url),
);
const fixture = (name: string) => readFile(join(fixtures, name), 'utf8');

function member(members: SourceMember[], email: string): SourceMember {
  const found = members.find((candidate) => candidate.email === email);
  if (!found) throw new Error(`no member ${email}`);
  return found;
}

describe("readMembersCsv on Ghost's members CSV", () => {
  it('reads name, note, consent, comp, Stripe customer, date and labels', async () => {
    const bundle = readMembersCsv(await fixture('ghost-members.csv'));
    expect(bundle.source).toBe('members');
    expect(bundle.members).toEqual([
      {
        email: 'reader@example.com',
        name: 'Rae Reader',
        note: 'Met at the fair, 2019',
        subscribed: true,
        labels: ['Fair 2019', 'Newsletter'],
        createdAt: new Date('2019-06-01T10:00:00.000Z'),
      },
      {
        email: 'payer@example.com',
        name: 'Paul Payer',
        subscribed: true,
        labels: ['VIP'],
        stripeCustomerId: 'cus_Payer123',
        createdAt: new Date('2020-01-15T08:30:00.000Z'),
      },
      {
        email: 'friend@example.com',
        name: 'Fran Friend',
        note: 'Press',
        subscribed: false,
        labels: [],
        comp: { until: null },
        createdAt: new Date('2021-02-02T00:00:00.000Z'),
      },
    ]);
  });

  it('skips deleted members, rows with no valid email and repeated emails, with their row', async () => {
    const bundle = readMembersCsv(await fixture('ghost-members.csv'));
    expect(bundle.skipped).toEqual([
      { item: 'gone@example.com', reason: 'row 5: deleted on Ghost (deleted_at is set)' },
      { item: 'row 6', reason: 'row 6: no valid email address' },
      { item: 'Reader@Example.com', reason: 'row 7: the same email as an earlier row' },
      { item: 'not an email', reason: 'row 8: no valid email address' },
    ]);
  });
});

describe("readMembersCsv on Substack's CSVs", () => {
  it('reads the subscriber list: paid ones with their Stripe customer, comps and gifts until expiry, consent', async () => {
    const bundle = readMembersCsv(await fixture('fixtures_subscriber_emails.csv'));
    expect(bundle.members).toHaveLength(17);
    expect(bundle.skipped).toEqual([]);
    expect(member(bundle.members, 'herroooo@substack.com')).toEqual({
      email: 'herroooo@substack.com',
      subscribed: true,
      labels: [],
      stripeCustomerId: 'cus_KJ896GHY09KJG',
    });
    expect(member(bundle.members, 'maguirec086@comm.ca')).toEqual({
      email: 'maguirec086@comm.ca',
      subscribed: false,
      labels: [],
      comp: { until: new Date('2025-06-23T23:41:42.980Z') },
    });
    expect(member(bundle.members, 'tcowenaldkuf@gmu.edu')).toMatchObject({
      comp: { until: new Date('2118-09-11T12:14:56.557Z') },
      stripeCustomerId: 'cus_KJ896GHY09KJG',
    });
    expect(member(bundle.members, 'jill@example.com').comp).toEqual({
      until: new Date('2021-05-23T18:28:09.830Z'),
    });
    // A gift with no expiry written has no end the file knows of.
    expect(member(bundle.members, 'maïbes@gmail.com').comp).toEqual({ until: null });
    expect(member(bundle.members, 'nottimferris@gmail.com').subscribed).toBe(false);
    // Three comps and five gifts.
    expect(bundle.members.filter((item) => item.comp).length).toBe(8);
  });

  it('reads the sign-up list: consent from email_disabled, and when they signed up', async () => {
    const bundle = readMembersCsv(await fixture('fixtures_signup_emails.csv'));
    expect(bundle.members).toHaveLength(21);
    expect(member(bundle.members, 'kirstygouda@gmail.com')).toEqual({
      email: 'kirstygouda@gmail.com',
      subscribed: true,
      labels: [],
      createdAt: new Date('2018-12-19T08:03:04.977Z'),
    });
    expect(bundle.members.filter((item) => !item.subscribed).map((item) => item.email)).toEqual([
      'maguirec086@comm.ca',
      'nottimferris@gmail.com',
    ]);
  });

  it('refuses a CSV it does not know, naming the headers it expected and the one it found', async () => {
    const text = await fixture('invalid.csv');
    let error: unknown;
    try {
      readMembersCsv(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ImportFileError);
    const message = (error as ImportFileError).message;
    expect(message).toContain(
      "Expected Ghost's header (email, name, note, subscribed_to_emails, complimentary_plan, stripe_customer_id, created_at, deleted_at, labels)",
    );
    expect(message).toContain("this file's header is: email_address, name");
    expect((error as ImportFileError).where).toBe('line 1');
  });
});
