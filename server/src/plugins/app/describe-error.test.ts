import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../domain-error.js';
import { notFound } from '../../ghost-api/ghost-error.js';
import { HttpError } from '../../http/errors.js';
import { answerErrorsAsGhost } from '../../http/ghost-errors.js';
import errorHandler, { describeError } from './error-handler.js';

// One function says what any error means for the client ({status, code, message}); the one error
// handler writes it in the site's shape, or in Ghost's on the routes of Ghost's scopes. The same
// throwing routes are mounted twice, once in each shape, on a bare Fastify with only the handler.

const ERROR_LEVEL = 50;
const SECRET = 'connection string postgres://cohort:hunter2@db';

const conflict = () =>
  new DomainError(409, 'edit_conflict', 'Someone saved this post meanwhile.', {
    current: { version: 3 },
  });
const BodySchema = Type.Object({ members: Type.Tuple([Type.Object({ email: Type.String() })]) });

/** The same failures on every scope: each kind of error the app meets. */
async function failingRoutes(scope: FastifyInstance) {
  scope.get('/conflict', async () => {
    throw conflict();
  });
  scope.get('/limited', async () => {
    throw new DomainError(429, 'too_many_attempts', 'Wait a minute.', {}, 30);
  });
  scope.get('/invalid-field', async () => {
    throw new DomainError(400, 'invalid_post', 'The title is required.');
  });
  scope.get('/ghost-refusal', async () => {
    throw notFound('Post not found.');
  });
  scope.get('/ghost-code', async () => {
    throw new DomainError(401, 'INVALID_JWT', 'Invalid token.', { ghostType: 'UnauthorizedError' });
  });
  scope.get('/http', async () => {
    throw new HttpError(401, 'sign_in_required', 'Sign in first.', {
      'www-authenticate': 'Cookie',
    });
  });
  scope.get('/too-many', async () => {
    throw Object.assign(new Error('Rate limit exceeded'), { statusCode: 429 });
  });
  scope.get('/database-down', async () => {
    throw Object.assign(new Error(`connect ECONNREFUSED ${SECRET}`), { code: 'ECONNREFUSED' });
  });
  scope.get('/bug', async () => {
    throw new TypeError(`Cannot read properties of undefined (${SECRET})`);
  });
  scope.post('/body', { schema: { body: BodySchema }, bodyLimit: 200 }, async () => ({ ok: true }));
}

let app: FastifyInstance;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  app = Fastify({
    logger: {
      level: 'error',
      stream: { write: (line: string) => logLines.push(JSON.parse(line)) },
    },
    // As the app's (app.ts): no coercion, so a number sent for a text field is refused.
    ajv: { customOptions: { coerceTypes: false } },
  });
  await app.register(errorHandler);
  await app.register(failingRoutes, { prefix: '/site' });
  await app.register(
    async (ghost) => {
      answerErrorsAsGhost(ghost);
      await ghost.register(failingRoutes);
    },
    { prefix: '/ghost' },
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
});

const get = (url: string) => app.inject({ method: 'GET', url });
const post = (url: string, payload: string) =>
  app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });

describe('describeError', () => {
  it('keeps a domain refusal’s status, code, message and details, and says when to retry', () => {
    expect(describeError(conflict())).toEqual({
      status: 409,
      code: 'edit_conflict',
      message: 'Someone saved this post meanwhile.',
      headers: {},
      details: { current: { version: 3 } },
    });
    expect(
      describeError(new DomainError(429, 'too_many_attempts', 'Wait.', {}, 30)).headers,
    ).toEqual({ 'retry-after': '30' });
  });

  it('takes Ghost’s type and context out of a refusal’s details', () => {
    expect(describeError(new DomainError(400, 'invalid_post', 'No title.'))).toMatchObject({
      ghostType: 'ValidationError',
      details: {},
    });
    const refusal = new DomainError(400, 'bad_request', 'Cannot filter by "colour".', {
      ghostType: 'BadRequestError',
      ghostContext: 'filter=colour:red',
    });
    expect(describeError(refusal)).toEqual({
      status: 400,
      code: 'bad_request',
      message: 'Cannot filter by "colour".',
      headers: {},
      details: {},
      ghostType: 'BadRequestError',
      ghostContext: 'filter=colour:red',
    });
  });

  it('describes what Fastify and Node’s parser raise by their codes', () => {
    const raised = (code: string, statusCode?: number) =>
      describeError(Object.assign(new Error(`raised ${code}`), { code, statusCode }));
    expect(raised('FST_ERR_CTP_BODY_TOO_LARGE', 413)).toMatchObject({
      status: 413,
      code: 'payload_too_large',
    });
    expect(raised('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415).code).toBe('unsupported_media_type');
    expect(raised('FST_ERR_BAD_URL', 400)).toMatchObject({
      status: 400,
      code: 'bad_request',
      message: 'The address is not valid.',
    });
    expect(raised('FST_ERR_MAX_PARAM_LENGTH', 414).code).toBe('uri_too_long');
    expect(raised('ERR_HTTP_REQUEST_TIMEOUT')).toMatchObject({
      status: 408,
      code: 'request_timeout',
    });
    expect(raised('HPE_HEADER_OVERFLOW').status).toBe(431);
    expect(raised('HPE_INVALID_METHOD')).toMatchObject({
      status: 400,
      message: 'The request is not valid HTTP.',
    });
  });

  it('answers anything else as a 500 that says nothing of its insides, and asks for a log line', () => {
    for (const thrown of [new Error(SECRET), SECRET, null, { statusCode: 302 }]) {
      const described = describeError(thrown);
      expect(described).toMatchObject({ status: 500, code: 'internal_error' });
      expect(described.message).not.toContain('hunter2');
      expect(described.logAs).toBe('request failed');
    }
    expect(describeError(Object.assign(new Error('x'), { statusCode: 503 }))).toMatchObject({
      status: 503,
      code: 'service_unavailable',
    });
  });
});

describe('the one error handler, in the site’s shape', () => {
  it('answers a refusal as {error: {code, message}} with its details beside it', async () => {
    const response = await get('/site/conflict');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      current: { version: 3 },
      error: { code: 'edit_conflict', message: 'Someone saved this post meanwhile.' },
    });
    const limited = await get('/site/limited');
    expect(limited.headers['retry-after']).toBe('30');
    const http = await get('/site/http');
    expect(http.statusCode).toBe(401);
    expect(http.headers['www-authenticate']).toBe('Cookie');
    expect(http.json()).toEqual({ error: { code: 'sign_in_required', message: 'Sign in first.' } });
    expect((await get('/site/too-many')).json().error.code).toBe('rate_limited');
  });

  it('answers a body its schema refuses with a 400 naming the field', async () => {
    const wrong = await post('/site/body', JSON.stringify({ members: [{ email: 7 }] }));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      error: {
        code: 'invalid_request',
        message: 'Invalid body: body/members/0/email must be string',
      },
    });
    expect((await post('/site/body', '{"members": [')).json().error.code).toBe('invalid_body');
    const large = await post(
      '/site/body',
      JSON.stringify({ members: [{ email: 'x'.repeat(300) }] }),
    );
    expect(large.statusCode).toBe(413);
    expect(large.json().error.code).toBe('payload_too_large');
  });

  it('answers a fault with a generic 500 or 503, logged once with the request’s id', async () => {
    for (const [url, status, message] of [
      ['/site/bug', 500, 'request failed'],
      ['/site/database-down', 503, 'database unavailable'],
    ] as const) {
      const before = logLines.length;
      const response = await get(url);
      expect(response.statusCode).toBe(status);
      expect(response.body).not.toContain('hunter2');
      const lines = logLines.slice(before).filter((line) => line.level === ERROR_LEVEL);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ msg: message, reqId: expect.any(String) });
      if (status === 503) expect(response.headers['retry-after']).toBe('5');
    }
  });
});

describe('the one error handler, in Ghost’s shape on Ghost’s scopes', () => {
  const firstError = async (url: string, payload?: string) => {
    const response = payload === undefined ? await get(url) : await post(url, payload);
    const body = response.json() as { errors: Record<string, unknown>[] };
    expect(body.errors).toHaveLength(1);
    return { status: response.statusCode, error: body.errors[0], headers: response.headers };
  };

  it('writes every field Ghost’s clients read', async () => {
    const { status, error } = await firstError('/ghost/ghost-refusal');
    expect(status).toBe(404);
    expect(error).toEqual({
      message: 'Post not found.',
      context: null,
      type: 'NotFoundError',
      details: null,
      property: null,
      help: null,
      code: null,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ghostErrorCode: null,
    });
  });

  it('names Ghost’s type from the refusal, else from the status, and keeps Ghost’s own codes', async () => {
    expect((await firstError('/ghost/invalid-field')).error?.type).toBe('ValidationError');
    expect((await firstError('/ghost/conflict')).error?.type).toBe('UpdateCollisionError');
    expect((await firstError('/ghost/ghost-code')).error).toMatchObject({
      type: 'UnauthorizedError',
      code: 'INVALID_JWT',
    });
    const limited = await firstError('/ghost/limited');
    expect(limited.error?.type).toBe('TooManyRequestsError');
    expect(limited.headers['retry-after']).toBe('30');
  });

  it('answers a body its schema refuses as a 400 ValidationError naming the field', async () => {
    const wrong = await firstError('/ghost/body', JSON.stringify({ members: [{ email: 7 }] }));
    expect(wrong.status).toBe(400);
    expect(wrong.error).toMatchObject({
      type: 'ValidationError',
      property: 'email',
      message: 'Invalid body: body/members/0/email must be string',
    });
    const missing = await firstError('/ghost/body', '{}');
    expect(missing.error).toMatchObject({ type: 'ValidationError', property: 'members' });
    const broken = await firstError('/ghost/body', '{"members": [');
    expect(broken).toMatchObject({ status: 400, error: { type: 'BadRequestError' } });
  });

  it('answers a fault with Ghost’s InternalServerError and nothing of its insides', async () => {
    const { status, error } = await firstError('/ghost/bug');
    expect(status).toBe(500);
    expect(error).toMatchObject({
      type: 'InternalServerError',
      message: 'Something went wrong on our side. Please try again.',
    });
    expect(JSON.stringify(error)).not.toContain('hunter2');
  });
});
