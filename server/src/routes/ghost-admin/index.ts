import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  GhostMembersBodySchema,
  GhostPagesBodySchema,
  GhostPostsBodySchema,
  type GhostMembersBody,
  type GhostPostBody,
} from '../../../../contract/ghost-admin-api.js';
import { uploadUrl } from '../../../../contract/images.js';
import type { StaffConfig } from '../../config.js';
import type { PostRow } from '../../content/post-row.js';
import { DomainError } from '../../domain-error.js';
import {
  readAdminCaller,
  requireGhostAccess,
  type AdminCaller,
  type GhostAccess,
} from '../../ghost-admin/admin-caller.js';
import {
  addGhostMember,
  browseGhostMembers,
  editGhostMember,
  readGhostMember,
  type AdminMemberWrite,
} from '../../ghost-admin/admin-members.js';
import {
  createGhostPost,
  deleteGhostPost,
  editGhostPost,
  readGhostRow,
  type AdminPostSite,
  type GhostResource,
} from '../../ghost-admin/admin-posts.js';
import { ghostTag } from '../../ghost-api/serializers.js';
import { browseGhostTiers } from '../../ghost-api/ghost-tiers.js';
import { ghostQueryOf } from '../../ghost-api/ghost-query.js';
import { browseAdminRows } from '../../ghost-admin/admin-browse.js';
import { answerErrorsAsGhost } from '../../http/ghost-errors.js';
import { ghostId } from '../../imports/ghost-ids.js';
import {
  adminGhostTiers,
  adminPostJson,
  type AdminJsonSite,
} from '../../ghost-admin/admin-post-json.js';
import { writeAudit } from '../../staff/audit.js';
import { withTransaction } from '../../db/transaction.js';
import { keySecretsOf } from '../../integrations/integrations.js';
import { ImageStoreError, storeImage } from '../../uploads/store-image.js';

export interface GhostAdminOptions {
  siteUrl: string;
  staff: StaffConfig;
  secrets: { sessionSecret?: string; sessionSecretPrevious?: string };
  /** The largest image file taken (UPLOAD_MAX_MB). */
  maxUploadBytes: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who calls the Admin API: set by its gate (routes/ghost-admin) but on routes for anyone. */
    ghostCaller: AdminCaller | null;
  }
  interface FastifyContextConfig {
    /** The right an Admin API route needs: every route of the area says it (admin-caller.ts). */
    ghostAccess?: GhostAccess;
  }
}

/** What the site answers as Ghost's version: the 5.x API. */
const CONTENT_VERSION = 'v5.0';

const caller = (request: FastifyRequest): AdminCaller => {
  if (!request.ghostCaller) throw new Error('the Admin API gate did not run');
  return request.ghostCaller;
};

/** Page and limit as Ghost reads them (`limit=all` is every one, up to a thousand). */
function pageOf(query: Record<string, string | undefined>): { limit: number; page: number } {
  const limitText = query.limit ?? '15';
  const limit = limitText === 'all' ? 1000 : Number(limitText);
  const page = Number(query.page ?? '1');
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new DomainError(
      400,
      'invalid_limit',
      'limit must be a whole number from 1 to 1000, or all.',
      {
        ghostType: 'BadRequestError',
      },
    );
  }
  if (!Number.isInteger(page) || page < 1 || page > 100_000) {
    throw new DomainError(400, 'invalid_page', 'page must be a whole number from 1.', {
      ghostType: 'BadRequestError',
    });
  }
  return { limit, page };
}

/** `?send_email=false` on members/: the caller says the address already agreed to the newsletter. */
function alreadyAgreedOf(query: Record<string, string | undefined>): boolean {
  const value = query.send_email;
  if (value === undefined || value === 'true') return false;
  if (value === 'false') return true;
  throw new DomainError(400, 'invalid_send_email', 'send_email must be true or false.', {
    ghostType: 'BadRequestError',
  });
}

/**
 * Ghost's Admin API under `/ghost/api/admin/` (docs/ghost-api.md#admin-api), for writing apps and
 * tools made for Ghost: `site/` for anyone; with a token (`Authorization: Ghost <jwt>`, made with an
 * integration's admin key or a staff access token) posts/ and pages/ (browse, read, add, edit,
 * delete), images/upload/, tags/ and members/ (browse, read, add, edit). Every route declares the
 * right it needs (`config: {ghostAccess}`), and one gate checks it against the caller: a route
 * that declares none stops the app from starting. Paths end with a slash, as Ghost's do. Bodies
 * are read by their schemas (contract/ghost-admin-api.ts). Errors are Ghost's
 * (`{errors: [{message, type}]}`, written by the one error handler) with Ghost's statuses;
 * `Accept-Version` is read and `Content-Version` answered.
 */
const ghostAdminRoutes: FastifyPluginAsync<GhostAdminOptions> = async (app, options) => {
  const { siteUrl } = options;
  const keySecrets = keySecretsOf(options.secrets);
  /** Ghost's 24-hex ids of posts, back to the rows they were made from (filled as needed). */
  const rowIds = new Map<string, number>();

  await app.register(multipart, {
    limits: { files: 1, fileSize: options.maxUploadBytes, fields: 4, parts: 5, headerPairs: 100 },
  });

  app.decorateRequest('ghostCaller', null);
  answerErrorsAsGhost(app);
  // Fail closed: a route that does not say who may call it is not added at all.
  app.addHook('onRoute', (route) => {
    if (!route.config?.ghostAccess) {
      throw new Error(`Admin API route ${route.method} ${route.url} declares no ghostAccess`);
    }
  });
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('content-version', CONTENT_VERSION).header('cache-control', 'no-store');
    const access = request.routeOptions.config.ghostAccess;
    if (!access) {
      throw new DomainError(403, 'no_access_declared', 'Nobody may call this address.', {
        ghostType: 'NoPermissionError',
      });
    }
    if (access === 'anyone') return;
    const who = await readAdminCaller(
      app.db.pool,
      { keySecrets, staff: options.staff },
      request.headers.authorization,
    );
    requireGhostAccess(who, access);
    request.ghostCaller = who;
  });

  /** The site as Ghost's posts are drawn with it, every tier included (hidden ones too). */
  const ghostSite = async (): Promise<AdminJsonSite> => ({
    siteUrl,
    sectionSlugs: app.siteContent.current().sectionSlugs,
    tiers: adminGhostTiers(await app.plans.catalog(), siteUrl, app.config.membership.currency),
  });

  const postSite = async (): Promise<AdminPostSite> => {
    const content = app.siteContent.current();
    const owners = options.staff.owners;
    const { rows } = await app.db.pool.query<{ id: string; email: string }>(
      `SELECT "id", "email" FROM "users" WHERE "email" = ANY($1) AND "emailVerifiedAt" IS NOT NULL`,
      [owners],
    );
    // The first owner STAFF_EMAILS lists who has an account.
    const ownerUserId =
      owners.map((email) => rows.find((row) => row.email === email)?.id).find(Boolean) ?? null;
    return {
      pool: app.db.pool,
      siteUrl,
      tiers: (await ghostSite()).tiers,
      articleSections: content.navigation.sections
        .filter((section) => section.lists === 'articles')
        .map((section) => section.name),
      topicNames: new Map([...content.topics.values()].map((topic) => [topic.slug, topic.name])),
      ownerUserId,
      publishAt: (postId, at) => app.postSchedule.publishAt(postId, at),
      cards: app.cardReader,
    };
  };

  const adminPost = async (row: PostRow, formats: readonly string[]) =>
    adminPostJson(app.db.pool, await ghostSite(), row, { formats });

  const formatsOf = (query: Record<string, string | undefined>) =>
    (query.formats ?? 'html').split(',').map((format) => format.trim());

  /** The row a Ghost id (or the site's own post number) names. */
  async function rowIdOf(resource: GhostResource, id: string): Promise<number> {
    if (/^[1-9][0-9]{0,8}$/.test(id)) return Number(id);
    if (!/^[0-9a-f]{24}$/.test(id)) return 0;
    if (!rowIds.has(id)) {
      const { rows } = await app.db.pool.query<{ id: number }>(`SELECT "id" FROM "posts"`);
      for (const row of rows) rowIds.set(ghostId(siteUrl, 'post', row.id), row.id);
    }
    return rowIds.get(id) ?? 0;
  }

  // Anyone: what a writing app asks first, to know it speaks to a Ghost-like site.
  app.get(
    '/site/',
    { config: { access: 'anyone', changesState: false, ghostAccess: 'anyone' } },
    async () => ({
      site: {
        title: app.siteContent.current().settings.title,
        description: app.siteContent.current().pages.get('home')?.description ?? null,
        logo: null,
        icon: `${siteUrl}/favicon.ico`,
        accent_color: null,
        locale: 'en',
        url: `${siteUrl}/`,
        version: '5.x',
      },
    }),
  );

  for (const resource of ['posts', 'pages'] as const) {
    const body = resource === 'posts' ? GhostPostsBodySchema : GhostPagesBodySchema;
    const write = {
      bodyLimit: 4 * 1024 * 1024,
      schema: { body },
      config: {
        access: 'admin-api-token',
        changesState: true,
        ghostAccess: 'posts',
        limit: 'admin-api-posts',
        changesContent: true,
      },
    } as const;
    app.get<{ Querystring: Record<string, string | undefined> }>(
      `/${resource}/`,
      { config: { access: 'admin-api-token', changesState: false, ghostAccess: 'posts' } },
      async (request) => {
        const { limit, page } = pageOf(request.query);
        const site = await ghostSite();
        const { rows, total } = await browseAdminRows(app.db.pool, site, resource, {
          ...(request.query.filter !== undefined && { filter: request.query.filter }),
          limit,
          page,
        });
        const formats = formatsOf(request.query);
        const posts = [];
        for (const row of rows)
          posts.push(await adminPostJson(app.db.pool, site, row, { formats }));
        const pages = Math.max(1, Math.ceil(total / limit));
        return {
          [resource]: posts,
          meta: {
            pagination: {
              page,
              limit,
              pages,
              total,
              next: page < pages ? page + 1 : null,
              prev: page > 1 ? page - 1 : null,
            },
          },
        };
      },
    );

    app.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>(
      `/${resource}/:id/`,
      { config: { access: 'admin-api-token', changesState: false, ghostAccess: 'posts' } },
      async (request) => {
        const row = await readGhostRow(
          app.db.pool,
          resource,
          await rowIdOf(resource, request.params.id),
        );
        return { [resource]: [await adminPost(row, formatsOf(request.query))] };
      },
    );

    app.get<{ Params: { slug: string }; Querystring: Record<string, string | undefined> }>(
      `/${resource}/slug/:slug/`,
      { config: { access: 'admin-api-token', changesState: false, ghostAccess: 'posts' } },
      async (request) => {
        const { rows } = await app.db.pool.query<{ id: number }>(
          `SELECT "id" FROM "posts" WHERE "slug" = $1 AND "deletedAt" IS NULL
              AND ("kind" = 'page') = $2 ORDER BY "id" LIMIT 1`,
          [request.params.slug, resource === 'pages'],
        );
        const row = await readGhostRow(app.db.pool, resource, rows[0]?.id ?? 0);
        return { [resource]: [await adminPost(row, formatsOf(request.query))] };
      },
    );

    app.post<{ Body: GhostPostBody; Querystring: Record<string, string | undefined> }>(
      `/${resource}/`,
      write,
      async (request, reply) => {
        const [input] = 'posts' in request.body ? request.body.posts : request.body.pages;
        if (request.query.source === 'html' && input.lexical === undefined) delete input.mobiledoc;
        const written = await createGhostPost(await postSite(), caller(request), resource, input);
        const row = await readGhostRow(app.db.pool, resource, written.id);
        return reply
          .code(201)
          .send({ [resource]: [await adminPost(row, formatsOf(request.query))] });
      },
    );

    app.put<{
      Body: GhostPostBody;
      Params: { id: string };
      Querystring: Record<string, string | undefined>;
    }>(`/${resource}/:id/`, write, async (request) => {
      const [input] = 'posts' in request.body ? request.body.posts : request.body.pages;
      const id = await rowIdOf(resource, request.params.id);
      const written = await editGhostPost(await postSite(), caller(request), resource, id, input);
      const row = await readGhostRow(app.db.pool, resource, written.id);
      return { [resource]: [await adminPost(row, formatsOf(request.query))] };
    });

    app.delete<{ Params: { id: string } }>(
      `/${resource}/:id/`,
      {
        config: {
          access: 'admin-api-token',
          changesState: true,
          ghostAccess: 'posts',
          changesContent: true,
        },
      },
      async (request, reply) => {
        const id = await rowIdOf(resource, request.params.id);
        await deleteGhostPost(await postSite(), caller(request), resource, id);
        return reply.code(204).send();
      },
    );
  }

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/tags/',
    { config: { access: 'admin-api-token', changesState: false, ghostAccess: 'posts' } },
    async (request) => {
      const { limit, page } = pageOf(request.query);
      const site = await ghostSite();
      const all = [...app.siteContent.current().topics.values()].map((topic) =>
        ghostTag(site, topic.name, { slug: topic.slug, description: topic.description ?? null }),
      );
      const pages = Math.max(1, Math.ceil(all.length / limit));
      return {
        tags: all.slice((page - 1) * limit, page * limit),
        meta: {
          pagination: {
            page,
            limit,
            pages,
            total: all.length,
            next: page < pages ? page + 1 : null,
            prev: page > 1 ? page - 1 : null,
          },
        },
      };
    },
  );

  // Read only: tiers are made and priced in the desk. Ghost's free tier first, then every tier,
  // hidden ones too (`visibility: 'none'`), in the site's order.
  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/tiers/',
    { config: { access: 'admin-api-token', changesState: false, ghostAccess: 'posts' } },
    async (request) => browseGhostTiers((await ghostSite()).tiers, ghostQueryOf(request.query)),
  );

  app.post(
    '/images/upload/',
    {
      config: {
        access: 'admin-api-token',
        changesState: true,
        ghostAccess: 'posts',
        limit: 'admin-api-images',
      },
    },
    async (request, reply) => {
      const who = caller(request);
      if (!request.isMultipart()) {
        throw new DomainError(
          400,
          'invalid_upload',
          'Send the image as multipart/form-data, field "file".',
          {
            ghostType: 'BadRequestError',
          },
        );
      }
      let file: { bytes: Buffer; name: string } | null = null;
      let ref: string | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file') {
              await part.toBuffer();
              continue;
            }
            const bytes = await part.toBuffer();
            if (part.file.truncated) throw tooLarge(options.maxUploadBytes);
            file = { bytes, name: part.filename };
          } else if (part.fieldname === 'ref' && typeof part.value === 'string') {
            ref = part.value.slice(0, 2000);
          }
        }
      } catch (error) {
        if (error instanceof DomainError) throw error;
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw tooLarge(options.maxUploadBytes);
        }
        throw new DomainError(
          400,
          'invalid_upload',
          'Send one image as multipart/form-data, field "file".',
          {
            ghostType: 'BadRequestError',
          },
        );
      }
      if (!file || file.bytes.length === 0) {
        throw new DomainError(400, 'invalid_upload', 'Send one image in the field "file".', {
          ghostType: 'BadRequestError',
        });
      }
      const uploaded = file;
      const { image } = await storeImage(app.db.pool, app.imageStore, uploaded.bytes, {
        fileName: uploaded.name,
        uploadedBy: who.integrationId ? null : who.actor.userId,
      }).catch((error: unknown) => {
        if (!(error instanceof ImageStoreError)) throw error;
        request.log.error({ err: error.cause }, 'could not store an uploaded image');
        throw new DomainError(
          503,
          'image_store_unavailable',
          'The image could not be stored just now: try again.',
        );
      });
      const url = `${siteUrl}${uploadUrl(image.id, image)}`;
      await withTransaction(app.db.pool, (tx) =>
        writeAudit(
          tx,
          { userId: who.actor.userId, email: who.label },
          {
            action: 'api_image_upload',
            targetUserId: null,
            before: null,
            after: { id: image.id, url },
          },
        ),
      );
      return reply.code(201).send({ images: [{ url, ref }] });
    },
  );

  const membersSite = {
    db: app.db,
    siteUrl,
    // The publication's name at each mail, from its settings (the desk may rename it).
    get siteName() {
      return app.siteContent.current().settings.title;
    },
  };
  /** Sends the confirmation mail a write asked for, before answering; a failure is logged. */
  async function answerMember(request: FastifyRequest, written: AdminMemberWrite) {
    if (written.mail) {
      await app.mailer
        .send(written.mail)
        .catch((error: unknown) =>
          request.log.error({ err: error }, 'could not send a newsletter confirmation mail'),
        );
    }
    return { members: [written.member] };
  }

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/members/',
    { config: { access: 'admin-api-token', changesState: false, ghostAccess: 'see-members' } },
    async (request) => {
      const { limit, page } = pageOf(request.query);
      return browseGhostMembers(app.db.pool, { filter: request.query.filter, limit, page });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/members/:id/',
    { config: { access: 'admin-api-token', changesState: false, ghostAccess: 'see-members' } },
    async (request) => ({ members: [await readGhostMember(app.db.pool, request.params.id)] }),
  );

  app.post<{ Body: GhostMembersBody; Querystring: Record<string, string | undefined> }>(
    '/members/',
    {
      schema: { body: GhostMembersBodySchema },
      config: {
        access: 'admin-api-token',
        changesState: true,
        ghostAccess: 'change-members',
        limit: 'admin-api-members',
      },
    },
    async (request, reply) => {
      const written = await addGhostMember(membersSite, caller(request), request.body.members[0], {
        alreadyAgreed: alreadyAgreedOf(request.query),
      });
      return reply.code(201).send(await answerMember(request, written));
    },
  );

  app.put<{
    Body: GhostMembersBody;
    Params: { id: string };
    Querystring: Record<string, string | undefined>;
  }>(
    '/members/:id/',
    {
      schema: { body: GhostMembersBodySchema },
      config: {
        access: 'admin-api-token',
        changesState: true,
        ghostAccess: 'change-members',
        limit: 'admin-api-members',
      },
    },
    async (request) => {
      const written = await editGhostMember(
        membersSite,
        caller(request),
        request.params.id,
        request.body.members[0],
        { alreadyAgreed: alreadyAgreedOf(request.query) },
      );
      return answerMember(request, written);
    },
  );
};

const tooLarge = (maxBytes: number) =>
  new DomainError(
    413,
    'file_too_large',
    `Upload an image of at most ${Math.round(maxBytes / 1024 / 1024)} MB.`,
    {
      ghostType: 'RequestEntityTooLargeError',
    },
  );

export default ghostAdminRoutes;
