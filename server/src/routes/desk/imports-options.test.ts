import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeObject } from '#test/fake-stripe';
import { buildStaff, type Member } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import type { DeskImport } from '../../../../contract/desk-api.js';

// The desk's Import page does what `npm run import` does (the options here; the upload itself is
// imports.test.ts's): a dry run that writes nothing, tag→section and Stripe price mappings,
// messages that never show where the server keeps the upload, and each import's whole report
// kept, to be read again when a past import is opened.

const OWNER = 'owner@example.com';

/** A Ghost 5 export of these posts and members, as bytes. */
function ghostExport(data: Record<string, unknown[]>): Buffer {
  return Buffer.from(
    JSON.stringify({
      db: [{ meta: { exported_on: 1_700_000_000_000, version: '5.0.0' }, data }],
    }),
  );
}

const post = (slug: string, fields: Record<string, unknown> = {}) => ({
  id: `id-${slug}`,
  uuid: `5b6b2a49-0000-4000-8000-${slug.length.toString().padStart(12, '0')}`,
  title: `The ${slug} post`,
  slug,
  html: `<p>Words of the ${slug} post, written on Ghost.</p>`,
  status: 'published',
  type: 'post',
  visibility: 'public',
  published_at: '2022-05-06T07:08:09.000Z',
  ...fields,
});

describe('the desk’s Import page options', () => {
  let t: Site;
  let base: string;
  let owner: Member;

  /** Posts the fields (a name may repeat, as `map` and `price` do) and a file, as the page does. */
  const upload = (fields: [string, string][], file: { bytes: Buffer; name: string }) => {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
    return fetch(`${base}/api/desk/imports`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
    });
  };
  const get = (path: string) => fetch(`${base}${path}`, { headers: { cookie: owner.cookie } });

  async function finished(id: string): Promise<DeskImport> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { import: job } = (await (await get(`/api/desk/imports/${id}`)).json()) as {
        import: DeskImport;
      };
      if (job.status === 'done' || job.status === 'failed') return job;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${job.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Uploads, expects 202, and waits for the import's end. */
  async function imported(...args: Parameters<typeof upload>): Promise<DeskImport> {
    const response = await upload(...args);
    expect(response.status, await response.clone().text()).toBe(202);
    const { import: started } = (await response.json()) as { import: { id: string } };
    return finished(started.id);
  }

  async function refused(...args: Parameters<typeof upload>): Promise<string> {
    const before = await count('imports');
    const response = await upload(...args);
    expect(response.status).toBe(400);
    expect(await count('imports')).toBe(before);
    return ((await response.json()) as { error: { message: string } }).error.message;
  }

  const count = async (table: string, where = 'true') =>
    Number(
      (await t.database.pool.query(`SELECT count(*) FROM "${table}" WHERE ${where}`)).rows[0].count,
    );

  beforeAll(async () => {
    t = await withSite({ payments: true, env: { STAFF_EMAILS: OWNER } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${address.port}`;
    [owner] = await buildStaff(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs a dry run that reports what the import would do and writes nothing', async () => {
    const file = ghostExport({
      posts: [post('dry-one'), post('dry-two')],
      members: [{ id: 'm1', email: 'dry@example.com', name: 'Dry Reader', subscribed: true }],
    });
    const tables = ['posts', 'post_paths', 'users', 'newsletter_subscribers', 'import_items'];
    const before = await Promise.all(tables.map((table) => count(table)));

    const job = await imported(
      [
        ['source', 'ghost'],
        ['section', 'Wealth'],
        ['dryRun', 'true'],
      ],
      { bytes: file, name: 'dry.json' },
    );
    expect(job.status, job.error ?? '').toBe('done');
    expect(job.report).toMatchObject({
      dryRun: true,
      posts: { created: 2 },
      members: { created: 1 },
    });
    expect(await Promise.all(tables.map((table) => count(table)))).toEqual(before);
    // The audit log says it was a dry run.
    const { rows } = await t.database.pool.query<{ after: { dryRun: boolean } }>(
      `SELECT after FROM audit_log WHERE action = 'import' AND after->>'import' = $1`,
      [job.id],
    );
    expect(rows).toEqual([{ after: expect.objectContaining({ dryRun: true }) }]);

    // The same file for real writes what the dry run said.
    const real = await imported([['source', 'ghost']], { bytes: file, name: 'dry.json' });
    expect(real.report).toMatchObject({ dryRun: false, posts: { created: 2 } });
    expect(await count('posts', `slug IN ('dry-one', 'dry-two')`)).toBe(2);
  });

  it('places posts by the tag→section mapping, and refuses a wrong mapping with 400 before starting', async () => {
    const file = ghostExport({
      posts: [post('mapped-health'), post('left-in-wealth')],
      tags: [{ id: 't1', name: 'Clinic News', slug: 'clinic-news' }],
      posts_tags: [{ id: 'pt1', post_id: 'id-mapped-health', tag_id: 't1', sort_order: 0 }],
    });
    const job = await imported(
      [
        ['source', 'ghost'],
        ['section', 'Wealth'],
        ['map', 'Clinic News=health'],
      ],
      { bytes: file, name: 'mapped.json' },
    );
    expect(job.status, job.error ?? '').toBe('done');
    const { rows } = await t.database.pool.query<{ slug: string; section: string }>(
      `SELECT slug, fields->>'category' AS section FROM posts
       WHERE slug IN ('mapped-health', 'left-in-wealth') ORDER BY slug`,
    );
    expect(rows).toEqual([
      { slug: 'left-in-wealth', section: 'Wealth' },
      { slug: 'mapped-health', section: 'Health' },
    ]);

    const bytes = { bytes: file, name: 'mapped.json' };
    expect(
      await refused(
        [
          ['source', 'ghost'],
          ['map', 'news=Gardening'],
        ],
        bytes,
      ),
    ).toMatch(/no section "Gardening"/);
    expect(
      await refused(
        [
          ['source', 'ghost'],
          ['map', 'news'],
        ],
        bytes,
      ),
    ).toMatch(/Each "map" is <tag>=<section>, as in news=Health/);
    expect(
      await refused(
        [
          ['source', 'ghost'],
          ['dryRun', 'perhaps'],
        ],
        bytes,
      ),
    ).toMatch(/"dryRun" is true or false/);
  });

  it('maps a Stripe price to a plan as --price does, and refuses one Stripe does not have', async () => {
    const price: StripeObject = t.stripe.createPrice({
      unit_amount: 500,
      interval: 'month',
      productName: 'Ghost membership',
    });
    const customer = t.stripe.createCustomer('payer@example.com').id;
    t.stripe.subscribeCustomer(customer, price.id);
    t.stripe.clearPending();
    const csv = {
      bytes: Buffer.from(
        'email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels\n' +
          `payer@example.com,Pat Payer,,true,false,${customer},,,\n`,
      ),
      name: 'members.csv',
    };
    const membership = async () =>
      (
        await t.database.pool.query<{ status: string }>(
          `SELECT m.status FROM memberships m JOIN users u ON u.id = m."userId"
           WHERE u.email = 'payer@example.com'`,
        )
      ).rows;

    // Unmapped, the price grants nothing and is named.
    const unmapped = await imported([['source', 'members']], csv);
    expect(unmapped.report?.unmappedPrices).toEqual([price.id]);
    expect(await membership()).toEqual([]);

    const mapped = await imported(
      [
        ['source', 'members'],
        ['price', `${price.id}=monthly`],
      ],
      csv,
    );
    expect(mapped.status, mapped.error ?? '').toBe('done');
    expect(mapped.report?.unmappedPrices).toEqual([]);
    expect(await membership()).toEqual([{ status: 'active' }]);

    expect(
      await refused(
        [
          ['source', 'members'],
          ['price', 'price_Nowhere=monthly'],
        ],
        csv,
      ),
    ).toBe('--price price_Nowhere=monthly: Stripe has no such price in this account.');
    expect(
      await refused(
        [
          ['source', 'members'],
          ['price', `${price.id}=weekly`],
        ],
        csv,
      ),
    ).toMatch(/the plan must be one of monthly, yearly/);
  });

  it('keeps each import’s whole report: opened later, it lists the skipped, the images not fetched and the old addresses', async () => {
    const file = ghostExport({
      posts: [
        post('with-picture', {
          html: '<p>A picture:</p><img src="http://127.0.0.1:9/gone.png" alt="A gone picture">',
        }),
      ],
      members: [
        { id: 'm1', email: 'kept@example.com', subscribed: false },
        { id: 'm2', email: 'not an address', subscribed: true },
      ],
    });
    const job = await imported(
      [
        ['source', 'ghost'],
        ['section', 'Wealth'],
      ],
      { bytes: file, name: 'reported.json' },
    );
    expect(job.status, job.error ?? '').toBe('done');
    const report = job.report;
    expect(report?.members.skipped).toEqual([
      { item: 'not an address', reason: 'members row 2: no valid email address' },
    ]);
    expect(report?.images.notFetched).toEqual([
      { url: 'http://127.0.0.1:9/gone.png', reason: expect.any(String) },
    ]);
    expect(report?.redirects).toBe(1);

    // Read again later (the list, then the one import), it is the whole report the database keeps.
    const { rows } = await t.database.pool.query<{ report: unknown }>(
      'SELECT report FROM imports WHERE id = $1',
      [job.id],
    );
    expect(rows[0]?.report).toEqual(report);
    const { imports } = (await (await get('/api/desk/imports')).json()) as {
      imports: DeskImport[];
    };
    expect(imports.find((each) => each.id === job.id)?.report).toEqual(report);
    const { import: again } = (await (await get(`/api/desk/imports/${job.id}`)).json()) as {
      import: DeskImport;
    };
    expect(again.report).toEqual(report);
  });

  it('never shows where the server keeps the upload: the progress and a failure name the file alone', async () => {
    // A Substack export must be a zip: this one fails as it is read.
    const job = await imported([['source', 'substack']], {
      bytes: Buffer.from('{"not": "a zip"}'),
      name: 'my-export.json',
    });
    expect(job.status).toBe('failed');
    expect(job.error).toBe('my-export.json is neither a folder nor a zip file');
    expect(job.progress).toMatchObject({ phase: 'reading', message: 'my-export.json' });
    expect(JSON.stringify(job)).not.toMatch(/cohort-import-|\/tmp\//);
  });
});
