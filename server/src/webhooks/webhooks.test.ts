import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GhostAdminAPI } from '#test/ghost-admin-client';
import {
  buildIntegration,
  buildMember,
  buildStaff,
  uniqueEmail,
  type Member,
} from '#test/factories';
import { useSite, withSite, type Site } from '#test/with-site';
import { deleteUserAndLedger } from '../memberships/memberships.js';
import { isPrivateAddress } from '../private-addresses.js';
import { resolveTarget } from './safe-target.js';
import { prismaEventWriter, recordMemberEvent } from '../outbox/webhook-events.js';
import { signWebhook, verifyWebhookSignature } from './webhook-signature.js';

// Webhooks out, as Ghost sends them: an owner adds one to an integration, a post published and a
// member added through the Admin API reach a test server, signed as Ghost signs
// (`X-Ghost-Signature: sha256=<hmac of body+timestamp>, t=<ms>`), in Ghost's payload shapes. A
// loopback address is refused unless the operator allows private addresses.

const OWNER = 'webhooks-owner@example.com';
const SECRET = 'a-shared-secret-for-signing';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

describe('webhooks out to an allowed private address (WEBHOOKS_ALLOW_PRIVATE=on)', () => {
  let t: Site;
  let site: string;
  let owner: Member;
  let receiver: Server;
  let target: string;
  const received: Received[] = [];
  let answerWith = 200;

  const desk = async (method: 'GET' | 'POST' | 'DELETE', url: string, body?: object) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { cookie: owner.cookie },
      ...(body && { payload: body }),
    });
    return {
      status: response.statusCode,
      body: (response.body ? JSON.parse(response.body) : {}) as Record<string, unknown>,
    };
  };

  /** The deliveries that have arrived once `count` have, or a failure after 20 s. */
  async function arrivals(count: number): Promise<Received[]> {
    for (let waited = 0; waited < 20_000; waited += 100) {
      if (received.length >= count) return received;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`only ${received.length} of ${count} webhooks arrived`);
  }

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.statusCode = answerWith;
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    target = `http://127.0.0.1:${address.port}/hook`;
    t = await withSite({
      listen: true,
      env: { STAFF_EMAILS: OWNER, WEBHOOKS_ALLOW_PRIVATE: 'on' },
    });
    site = t.url;
    [owner] = await buildStaff(t, 'owner');
  });

  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('posts post.published and member.added, signed as Ghost signs, in Ghost’s shapes', async () => {
    const integration = await buildIntegration(t, { name: 'Zapier', by: owner });
    for (const event of ['post.published', 'member.added']) {
      const added = await desk('POST', `/api/desk/integrations/${integration.id}/webhooks`, {
        event,
        targetUrl: target,
        secret: SECRET,
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
    const listed = await desk('GET', '/api/desk/webhooks');
    expect(listed.body.webhooks).toEqual([
      expect.objectContaining({ event: 'post.published', targetUrl: target, signed: true }),
      expect.objectContaining({ event: 'member.added', targetUrl: target, signed: true }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);
    // Kept sealed, as admin keys' secrets are: the database alone cannot sign as the site.
    const { rows: stored } = await t.app.db.pool.query<{ secret: string }>(
      `SELECT "secret" FROM "webhooks" WHERE "integrationId" = $1`,
      [integration.id],
    );
    expect(stored).toHaveLength(2);
    for (const row of stored) {
      expect(row.secret).toMatch(/^v1\./);
      expect(row.secret).not.toContain(SECRET);
    }

    const admin = GhostAdminAPI({ url: site, key: integration.adminKey, version: 'v5.0' });
    const draft = await admin.posts.add({ title: 'Told by webhook', html: '<p>Hello.</p>' });
    await admin.posts.edit({ id: draft.id, updated_at: draft.updated_at, status: 'published' });
    const email = uniqueEmail('webhook-member');
    await admin.members.add({ email, name: 'Told Too' });

    const [first, second] = await arrivals(2);
    const byEvent = new Map<string, Received>();
    for (const delivery of [first, second]) {
      if (!delivery) continue;
      const body = JSON.parse(delivery.body) as Record<string, unknown>;
      byEvent.set('post' in body ? 'post' : 'member', delivery);
    }
    for (const delivery of byEvent.values()) {
      const signature = String(delivery.headers['x-ghost-signature']);
      expect(signature).toMatch(/^sha256=[0-9a-f]{64}, t=\d+$/);
      // The receiver's check, Ghost's recipe: HMAC-SHA256(secret, body + t).
      expect(verifyWebhookSignature(delivery.body, signature, SECRET)).toBe(true);
      expect(verifyWebhookSignature(delivery.body, signature, 'another secret')).toBe(false);
      expect(delivery.headers['content-type']).toBe('application/json');
    }
    const post = JSON.parse(byEvent.get('post')?.body ?? '{}') as {
      post: { current: Record<string, unknown>; previous: Record<string, unknown> };
    };
    expect(post.post.current).toMatchObject({
      id: draft.id,
      title: 'Told by webhook',
      status: 'published',
    });
    expect(post.post.previous).toMatchObject({ status: 'draft', published_at: null });
    const member = JSON.parse(byEvent.get('member')?.body ?? '{}') as {
      member: { current: Record<string, unknown>; previous: Record<string, unknown> };
    };
    expect(member.member.current).toMatchObject({ email, name: 'Told Too', status: 'free' });
    expect(member.member.previous).toEqual({});

    // The sender marks a delivery sent once the receiver's answer is back, which may be after
    // the receiver has it: wait for that, as the site would, rather than read too early.
    await vi.waitFor(
      async () => {
        const { rows } = await t.database.pool.query<{ state: string; event: string }>(
          `SELECT "state", "event" FROM "webhook_deliveries" ORDER BY "event"`,
        );
        expect(rows).toEqual([
          { state: 'sent', event: 'member.added' },
          { state: 'sent', event: 'post.published' },
        ]);
      },
      { timeout: 30_000, interval: 50 },
    );
  });

  it('keeps a refused delivery on the queue to be tried again, and says why', async () => {
    received.length = 0;
    answerWith = 500;
    const { rows: keys } = await t.database.pool.query<{ id: string }>(
      `SELECT "id" FROM "integrations" LIMIT 1`,
    );
    expect(keys).toHaveLength(1);
    const integration = await buildIntegration(t, { name: 'Retry', by: owner });
    const api = GhostAdminAPI({ url: site, key: integration.adminKey, version: 'v5.0' });
    await api.members.add({ email: uniqueEmail('webhook-retry') });
    await arrivals(1);
    let failing: { id: string; attempts: number; state: string; lastError: string }[] = [];
    for (let waited = 0; waited < 5_000 && failing.length === 0; waited += 100) {
      ({ rows: failing } = await t.database.pool.query(
        `SELECT "id", "attempts", "state", "lastError" FROM "webhook_deliveries"
          WHERE "attempts" > 0 AND "state" <> 'sent'`,
      ));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(failing).toEqual([
      { id: expect.any(String), attempts: 1, state: 'queued', lastError: 'answered 500' },
    ]);
    const { rows: jobs } = await t.database.pool.query<{ state: string }>(
      `SELECT "state" FROM pgboss.job WHERE "id" = $1`,
      [failing[0]?.id],
    );
    expect(jobs[0]?.state).toBe('retry');
    const { rows: hooks } = await t.database.pool.query<{ lastStatus: string }>(
      `SELECT "lastStatus" FROM "webhooks" WHERE "event" = 'member.added'`,
    );
    expect(hooks[0]?.lastStatus).toBe('500');
    answerWith = 200;
  });
});

describe('members’ events, recorded in the change’s own transaction', () => {
  const t = useSite({ env: { STAFF_EMAILS: OWNER } });
  let owner: Member;

  beforeAll(async () => {
    [owner] = await buildStaff(t, 'owner');
  });

  it('keeps the member as they were, in the same transaction that deletes them', async () => {
    const { id } = await buildIntegration(t, { name: 'CRM', by: owner });
    // A public address given as an IP: nothing is sent here (no queue is worked in time to
    // matter); what the deletion recorded is what is read.
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/desk/integrations/${id}/webhooks`,
      headers: { cookie: owner.cookie },
      payload: { event: 'member.deleted', targetUrl: 'https://93.184.216.34/hook' },
    });
    expect(added.statusCode).toBe(201);
    const member = await buildMember(t, { email: uniqueEmail('leaving'), name: 'Leaving Soon' });
    await deleteUserAndLedger({ db: t.database }, member.userId);
    const { rows } = await t.database.pool.query<{ payload: Record<string, unknown> }>(
      `SELECT "payload" FROM "webhook_deliveries" WHERE "event" = 'member.deleted'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.payload).toEqual({
      member: {
        current: {},
        previous: expect.objectContaining({
          id: member.userId,
          email: member.email,
          name: 'Leaving Soon',
          status: 'free',
        }),
      },
    });
  });
  it('records member.added through Prisma’s transaction as a registration writes it', async () => {
    const { rows: hooks } = await t.database.pool.query<{ integrationId: string }>(
      `SELECT "integrationId" FROM "webhooks" LIMIT 1`,
    );
    await t.database.pool.query(
      `INSERT INTO "webhooks" ("id", "integrationId", "event", "targetUrl")
       VALUES (gen_random_uuid(), $1, 'member.added', 'https://93.184.216.34/hook')`,
      [hooks[0]?.integrationId],
    );
    const member = await buildMember(t, { email: uniqueEmail('registered') });
    await t.database.prisma.$transaction((tx) =>
      recordMemberEvent(prismaEventWriter(tx), 'member.added', member.userId),
    );
    const { rows } = await t.database.pool.query<{ payload: Record<string, unknown> }>(
      `SELECT "payload" FROM "webhook_deliveries" WHERE "event" = 'member.added'`,
    );
    expect(rows).toEqual([
      {
        payload: {
          member: {
            current: expect.objectContaining({ id: member.userId, email: member.email }),
            previous: {},
          },
        },
      },
    ]);
  });
});

describe('where webhooks may go', () => {
  const t = useSite({ env: { STAFF_EMAILS: OWNER } });
  let owner: Member;

  beforeAll(async () => {
    [owner] = await buildStaff(t, 'owner');
  });

  it('refuses a loopback or private target unless the operator allows them', async () => {
    const { id } = await buildIntegration(t, { name: 'Local', by: owner });
    for (const targetUrl of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/hook',
    ]) {
      const refused = await t.app.inject({
        method: 'POST',
        url: `/api/desk/integrations/${id}/webhooks`,
        headers: { cookie: owner.cookie },
        payload: { event: 'post.published', targetUrl },
      });
      expect(refused.statusCode, targetUrl).toBe(400);
      expect(refused.json().error.code).toBe('private_address');
    }
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/api/desk/integrations/${id}/webhooks`,
      headers: { cookie: owner.cookie },
      payload: { event: 'post.deleted', targetUrl: 'https://example.com/hook' },
    });
    expect(wrong.statusCode).toBe(400);
    const { rows } = await t.database.pool.query(`SELECT 1 FROM "webhooks"`);
    expect(rows).toHaveLength(0);
  });

  it('checks every address, IPv4 written as IPv6 too', async () => {
    expect(isPrivateAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isPrivateAddress('fd00::1')).toBe(true);
    expect(isPrivateAddress('100.64.0.1')).toBe(true);
    expect(isPrivateAddress('93.184.216.34')).toBe(false);
    expect(isPrivateAddress('2606:4700::1111')).toBe(false);
    await expect(resolveTarget(new URL('http://127.0.0.1/'), false)).rejects.toMatchObject({
      code: 'private_address',
    });
    await expect(resolveTarget(new URL('http://127.0.0.1/'), true)).resolves.toMatchObject({
      address: '127.0.0.1',
    });
  });

  it('signs as Ghost does: sha256 of the body followed by the timestamp', () => {
    const body = '{"post":{"current":{},"previous":{}}}';
    expect(signWebhook(body, 'secret', 1700000000000)).toBe(
      // printf '%s' '{"post":{"current":{},"previous":{}}}1700000000000' | openssl dgst -sha256 -hmac secret
      'sha256=aa30161bcc6842365ae5600ce64d14c5ed7cdc0805caf86e856baff7a0d39948, t=1700000000000',
    );
  });
});
