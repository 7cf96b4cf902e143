import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStripe } from '#test/fake-stripe';
import { newVisitor, type Visitor } from '#test/visitor';
import { builtDirs, withSite, type Site } from '#test/with-site';
import { PerkCatalogError, readPerkCatalog, type PerkCatalog } from '../../perks/catalog.js';
import { importCodes, parseCodes } from '../../perks/import-codes.js';
import { perkReport } from '../../perks/redeem.js';
import { earlyAccessMetadata } from '../../stripe/cohort-sales.js';

const MEMBERSHIP_PRICE = { priceCents: 1200, currency: 'usd', priceId: undefined };

function perkFile(id: string, fields: Record<string, string> = {}) {
  const front = {
    id,
    partner: `"Partner ${id}"`,
    category: 'Food',
    offer: '"10% off"',
    terms: '"Terms apply."',
    howToRedeem: '"Enter the code at checkout."',
    expiresOn: '2099-12-31',
    updatedAt: '2026-11-23',
    website: 'https://partner.example',
    ...fields,
  };
  return `---\n${Object.entries(front)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n')}\n---\n`;
}

/** A content/perks folder and a redemptions file of the test's own. */
async function writePerks(
  perks: Record<string, string>,
  redemptions: unknown,
): Promise<{ contentDir: string; redemptionsFile: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'cohort-perks-'));
  const contentDir = join(dir, 'content-perks');
  await import('node:fs/promises').then(({ mkdir }) => mkdir(contentDir));
  for (const [id, text] of Object.entries(perks))
    await writeFile(join(contentDir, `${id}.md`), text);
  const redemptionsFile = join(dir, 'redemptions.json');
  await writeFile(redemptionsFile, JSON.stringify(redemptions));
  return { contentDir, redemptionsFile, dir };
}

describe('partner perks', () => {
  let stripe: FakeStripe;
  let t: Site;
  let catalog: PerkCatalog;
  let folder: string;

  beforeAll(async () => {
    const paths = await writePerks(
      {
        'shared-code': perkFile('shared-code'),
        'member-link': perkFile('member-link', { category: 'Travel' }),
        pool: perkFile('pool', { category: 'Online retailers' }),
        'small-pool': perkFile('small-pool'),
        ended: perkFile('ended', { expiresOn: '2020-01-31' }),
      },
      {
        'shared-code': { code: 'SHARED-SECRET-CODE' },
        'member-link': { link: 'https://partner.example/secret-member-link' },
        pool: { singleUseCodes: true },
        'small-pool': { singleUseCodes: true },
        ended: { code: 'ENDED-SECRET-CODE' },
      },
    );
    folder = paths.dir;
    catalog = await readPerkCatalog(paths);
    t = await withSite({ payments: true, perkCatalog: catalog, captureLogs: true });
    stripe = t.stripe;
  });
  afterAll(async () => {
    await t?.close();
    await rm(folder, { recursive: true, force: true });
  });

  const redeem = (visitor: Visitor | null, id: string) =>
    visitor
      ? visitor.request({ method: 'POST', url: `/api/perks/${id}/redeem` })
      : t.app.inject({ method: 'POST', url: `/api/perks/${id}/redeem` });

  async function newMember(): Promise<Visitor & { intentId: string }> {
    const visitor = await newVisitor(t.app);
    const intent = stripe.paidPaymentIntent(earlyAccessMetadata(visitor.userId, MEMBERSHIP_PRICE));
    await stripe.deliverPending();
    expect((await visitor.me()).isSubscribed).toBe(true);
    return Object.assign(visitor, { intentId: String(intent.id) });
  }

  async function importPool(id: string, count: number) {
    const codes = Array.from({ length: count }, (_, i) => `${id.toUpperCase()}-${i + 1}`);
    return importCodes({ db: t.database }, id, codes);
  }

  it('gives a member the shared code, and the same one again', async () => {
    const member = await newMember();
    const first = await redeem(member, 'shared-code');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ perkId: 'shared-code', code: 'SHARED-SECRET-CODE' });
    expect((await redeem(member, 'shared-code')).json()).toEqual(first.json());
    expect((await redeem(member, 'member-link')).json()).toEqual({
      perkId: 'member-link',
      link: 'https://partner.example/secret-member-link',
    });
  });

  it('gives 50 members asking at once 50 different codes of a pool of 50, and the 51st none', async () => {
    await importPool('pool', 50);
    const members = await Promise.all(Array.from({ length: 51 }, () => newMember()));
    const answers = await Promise.all(members.map((member) => redeem(member, 'pool')));
    const codes = answers.filter((a) => a.statusCode === 200).map((a) => a.json().code);
    expect(codes).toHaveLength(50);
    expect(new Set(codes).size).toBe(50);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused.map((a) => [a.statusCode, a.json().error.code])).toEqual([
      [409, 'codes_exhausted'],
    ]);
    expect(refused[0]?.json().error.message).toMatch(/^All codes claimed/);

    // Each member keeps their own code, however often they ask, even in parallel.
    const again = await Promise.all(members.slice(0, 5).map((member) => redeem(member, 'pool')));
    expect(again.map((a) => a.json().code)).toEqual(answers.slice(0, 5).map((a) => a.json().code));
    const twice = await newMember();
    await importPool('pool', 52); // two more codes
    const parallel = await Promise.all([redeem(twice, 'pool'), redeem(twice, 'pool')]);
    expect(parallel.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(parallel[0]?.json().code).toBe(parallel[1]?.json().code);

    expect(
      t
        .logs()
        .some((line) => line.level === 40 && /^perk pool: \d+ of 50 single-use/.test(line.msg)),
    ).toBe(true);
    const report = await perkReport({ db: t.database }, catalog.all());
    expect(report.find((row) => row.perkId === 'pool')).toEqual({
      perkId: 'pool',
      claimed: 51,
      left: 1,
    });
    expect(report.find((row) => row.perkId === 'shared-code')).toMatchObject({ left: null });
  });

  it('gives a non-member, an anonymous visitor and a stranger 403 or 401 and no code', async () => {
    const reader = await newVisitor(t.app);
    for (const id of ['shared-code', 'member-link', 'pool']) {
      const answer = await redeem(reader, id);
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({
        error: {
          code: 'members_only',
          message: 'Perks are for members: join to redeem this offer.',
        },
      });
      const stranger = await redeem(null, id);
      expect(stranger.statusCode).toBe(401);
      for (const body of [answer.body, stranger.body]) {
        expect(body).not.toMatch(/SECRET|POOL-/);
      }
    }
  });

  it('stops redeeming when the membership is refunded; the code shown stays recorded', async () => {
    await importPool('small-pool', 3);
    const member = await newMember();
    const code = (await redeem(member, 'small-pool')).json().code;
    stripe.refund(member.intentId);
    await stripe.deliverPending();
    expect((await member.me()).isSubscribed).toBe(false);

    const after = await redeem(member, 'small-pool');
    expect(after.statusCode).toBe(403);
    expect(after.body).not.toContain(code);
    const { rows } = await t.database.pool.query(
      `SELECT "claimedBy" FROM perk_codes WHERE code = $1`,
      [code],
    );
    expect(rows).toEqual([{ claimedBy: member.userId }]);
  });

  it('shows every visitor the offers on /perks, in its HTML data, never a way to redeem one', async () => {
    const response = await t.app.inject({ url: '/api/site-data?path=%2Fperks' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('10% off');
    for (const secret of ['SHARED-SECRET-CODE', 'secret-member-link', 'ENDED-SECRET-CODE']) {
      expect(response.body).not.toContain(secret);
    }
  });

  it('answers 404 for an ended offer and an unknown one, member or not', async () => {
    const member = await newMember();
    for (const id of ['ended', 'no-such-perk']) {
      const answer = await redeem(member, id);
      expect(answer.statusCode).toBe(404);
      expect(answer.json().error.code).toBe('perk_not_found');
      expect(answer.body).not.toContain('ENDED-SECRET-CODE');
    }
    expect((await redeem(member, 'Not_A_Slug')).statusCode).toBe(400);
  });

  it('is refused from another site', async () => {
    const member = await newMember();
    const answer = await member.request({
      method: 'POST',
      url: '/api/perks/shared-code/redeem',
      headers: { origin: 'https://evil.example' },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().error.code).toBe('cross_site_request');
  });
});

describe('the perks catalog', () => {
  it('refuses perks without a way to redeem them, and redemptions without a perk', async () => {
    const paths = await writePerks(
      { 'no-rule': perkFile('no-rule'), typo: perkFile('typo', { category: 'Pets' }) },
      { 'no-rule-at-all': { code: 'X' }, typo: { code: 'Y' } },
    );
    const error = await readPerkCatalog(paths).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PerkCatalogError);
    expect((error as PerkCatalogError).problems).toEqual([
      'content/perks/typo.md: category: must be one of Food, Travel, Services, Online retailers',
      'perks/redemptions.json: no-rule: is missing (how is this perk redeemed?)',
      'perks/redemptions.json: no-rule-at-all: names no perk in content/perks/',
      'perks/redemptions.json: typo: names no perk in content/perks/',
    ]);
    await rm(paths.dir, { recursive: true, force: true });
  });

  it('reads the shipped sample perks: eight partners across the four categories', async () => {
    const { perksContentDir, perkRedemptionsFile } = await import('../../paths.js');
    const shipped = await readPerkCatalog({
      contentDir: perksContentDir,
      redemptionsFile: perkRedemptionsFile,
    });
    expect(shipped.all()).toHaveLength(8);
    expect(new Set(shipped.all().map((perk) => perk.category)).size).toBe(4);
    expect(shipped.all().every((perk) => perk.sample)).toBe(true);
  });

  it('never puts a redemption secret in the built client', async () => {
    const files = await readdir(builtDirs().clientDir, { recursive: true });
    const { perksContentDir, perkRedemptionsFile } = await import('../../paths.js');
    const shipped = await readPerkCatalog({
      contentDir: perksContentDir,
      redemptionsFile: perkRedemptionsFile,
    });
    const secrets = shipped
      .all()
      .flatMap((perk) =>
        'code' in perk.redemption
          ? [perk.redemption.code]
          : 'link' in perk.redemption
            ? [perk.redemption.link]
            : [],
      );
    const sampleCodes = parseCodes(
      await readFile(join(perkRedemptionsFile, '..', 'sample-codes.csv'), 'utf8'),
    );
    if (sampleCodes.ok) secrets.push(...sampleCodes.codes.slice(0, 5));
    for (const file of files) {
      const text = await readFile(join(builtDirs().clientDir, file), 'utf8').catch(() => '');
      const leaked = secrets.filter((secret) => text.includes(secret));
      expect(leaked, `secrets in ${file}`).toEqual([]);
    }
  });
});

describe('importing single-use codes', () => {
  it('names each bad line, and imports nothing from a file with any', () => {
    expect(parseCodes('code\nAAA\n\nBBB\nAAA\nC,D\n')).toEqual({
      ok: false,
      problems: [
        'line 3: is blank',
        'line 5: repeats the code on line 2',
        'line 6: holds more than one column',
      ],
    });
    expect(parseCodes('')).toEqual({ ok: false, problems: ['the file holds no codes'] });
    expect(parseCodes('\uFEFFcode\r\nAAA\r\nBBB\r\n')).toEqual({ ok: true, codes: ['AAA', 'BBB'] });
  });
});
