import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/test-app';
import { createIntegration, keySecretsOf } from '../../integrations/integrations.js';

// The Admin API reads its bodies by their schemas (contract/ghost-admin-api.ts), through the same
// validation as every other route: a wrong body is a 400 in Ghost's shape whose message and
// `property` name the field, and nothing is written; the fields Ghost's clients send that the site
// does not keep are taken and ignored.

const ADMIN = '/ghost/api/admin';

let t: TestApp;
let adminKey: string;

/** `Authorization: Ghost <jwt>`, as Ghost's client signs it with an admin key. */
async function authorization() {
  const [kid = '', secret = ''] = adminKey.split(':');
  const now = Math.floor(Date.now() / 1000);
  const jwt = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', kid })
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .setAudience('/admin/')
    .sign(Buffer.from(secret, 'hex'));
  return `Ghost ${jwt}`;
}

async function send(path: string, payload: unknown) {
  const response = await t.app.inject({
    method: 'POST',
    url: `${ADMIN}/${path}`,
    headers: { authorization: await authorization(), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  const body = JSON.parse(response.body) as {
    errors?: { type: string; message: string; property: string | null }[];
  };
  return { status: response.statusCode, body, error: body.errors?.[0] };
}

const accountsWith = async (email: string) =>
  (await t.database.pool.query(`SELECT 1 FROM users WHERE email = $1`, [email])).rows.length;

beforeAll(async () => {
  t = await createTestApp();
  const made = await createIntegration(
    t.database.pool,
    keySecretsOf(t.config),
    { userId: randomUUID(), email: 'owner@example.com' },
    { name: 'Body checks' },
  );
  adminKey = made.adminKey;
});

afterAll(async () => {
  await t?.close();
});

describe('a body the Admin API’s schema refuses', () => {
  it('is a 400 ValidationError naming the member’s field, and adds no one', async () => {
    const email = `body-check-${randomUUID()}@example.com`;
    for (const [payload, field] of [
      [{ members: [{ email: 42 }] }, 'email'],
      [{ members: [{ email, labels: 'vip' }] }, 'labels'],
      [{ members: [{ email, subscribed: 'yes' }] }, 'subscribed'],
      [{ members: [] }, 'members'],
      [{ member: { email } }, 'members'],
    ] as const) {
      const answer = await send('members/', payload);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      expect(answer.error).toMatchObject({ type: 'ValidationError', property: field });
      expect(answer.error?.message).toContain(field);
    }
    expect(await accountsWith(email)).toBe(0);
  });

  it('is a 400 ValidationError naming the post’s field', async () => {
    for (const [payload, field] of [
      [{ posts: [{ title: 7 }] }, 'title'],
      [{ posts: [{ title: 'Tagged wrong', tags: 'news' }] }, 'tags'],
      [{ posts: [{ title: 'One' }, { title: 'Two' }] }, 'posts'],
      [{ pages: [{ title: 'A page sent as posts' }] }, 'posts'],
    ] as const) {
      const answer = await send('posts/', payload);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      expect(answer.error).toMatchObject({ type: 'ValidationError', property: field });
    }
  });

  it('is a BadRequestError when it is not JSON at all', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `${ADMIN}/members/`,
      headers: { authorization: await authorization(), 'content-type': 'application/json' },
      payload: '{"members": [',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].type).toBe('BadRequestError');
  });
});

describe('the fields Ghost’s clients send that the site does not keep', () => {
  it('are taken and ignored', async () => {
    const email = `body-extra-${randomUUID()}@example.com`;
    const member = await send('members/', {
      members: [{ email, comped: false, status: 'free', tiers: [], email_disabled: false }],
    });
    expect(member.status, JSON.stringify(member.body)).toBe(201);
    expect(await accountsWith(email)).toBe(1);

    const post = await send('posts/?source=html', {
      posts: [
        {
          title: 'Sent with Ghost’s extras',
          html: '<p>Words.</p>',
          featured: true,
          og_title: 'Shared title',
          codeinjection_head: '<script>alert(1)</script>',
          authors: [{ id: '1' }],
          tags: [{ name: 'Extras', description: 'ignored' }],
        },
      ],
    });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
  });
});
