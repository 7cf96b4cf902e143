import {
  TypeBoxValidatorCompiler,
  type FastifyPluginAsyncTypebox,
} from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import type { BulkAction, BulkResult } from '../../../../contract/post-bulk.js';
import {
  bulkBodyProblems,
  PostBulkBodySchema,
  postFilterFields,
} from '../../../../contract/post-bulk-api.js';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import {
  NewPostBodySchema,
  PostChangeBodySchema,
  PostPreviewBodySchema,
  PublishBodySchema,
  RestoreBodySchema,
  TopicBodySchema,
  VersionBodySchema,
} from '../../../../contract/post-bodies.js';
import type { FieldProblem } from '../../../../contract/schema-problems.js';
import {
  fieldLabel,
  type PostTierChoice,
  type PublishWarning,
} from '../../../../contract/post-editor-fields.js';
import { describeUnreadCard } from '../../embeds/card-reader.js';
import { readPostBody } from '../../content/post-validation.js';
import type { Actor } from '../../content/post-actors.js';
import {
  createPost,
  deletePost,
  restoreRevision,
  updatePost,
  type PostChange,
} from '../../content/post-editing.js';
import { getPost, listPosts } from '../../content/post-listing.js';
import {
  actOnPosts,
  invalidBulk,
  readBulkTarget,
  selectBulkPosts,
} from '../../content/post-bulk.js';
import {
  previewPost,
  publishPost,
  submitPost,
  unpublishPost,
} from '../../content/post-publishing.js';
import { listRevisions, readRevision } from '../../content/post-versions.js';
import { describeTopic, refuseTopic } from '../../content/topic-store.js';
import { readTiers } from '../../memberships/tier-catalog.js';
import type { DeskTopic } from '../../../../contract/desk-api.js';
import { HttpError } from '../../http/errors.js';
import { DomainError } from '../../domain-error.js';
import { readQueryNumber } from '../../http/query-number.js';
import { MAX_POST_REQUEST_BYTES } from '../../../../contract/post-fields.js';
import { deskStaff } from './desk-staff.js';
import { requireDeskAccess, type DeskAccess } from './desk-access.js';

/** A post's id or a revision's version in a path: a positive whole number (PostgreSQL's int). */
const Serial = Type.String({ pattern: '^[1-9][0-9]{0,8}$' });
const Id = Type.Object({ id: Serial });
const IdAndRevision = Type.Object({ id: Serial, revision: Serial });
/**
 * The bodies are read by their schemas (contract/post-bodies.ts) through
 * contract/schema-problems.ts: a wrong one is a 400 naming each wrong field, `invalid_post` (or
 * `invalid_topic`), and the handler gets it typed, its text trimmed. Params and query strings are
 * TypeBox's as everywhere.
 */
const readBodyBy =
  (
    refuse?: (problems: FieldProblem[]) => Error,
    part: 'body' | 'querystring' = 'body',
  ): FastifySchemaCompiler<TSchema> =>
  (route) => {
    if (route.httpPart !== part) return TypeBoxValidatorCompiler(route);
    // No body reads as an empty one: each field it lacks is named.
    return (body) => {
      try {
        return { value: readPostBody(route.schema, body ?? {}, refuse) };
      } catch (error) {
        return { error: error as Error };
      }
    };
  };
const postBody = readBodyBy();
const topicBody = readBodyBy(refuseTopic);
const refuseBulk = (problems: FieldProblem[]) =>
  invalidBulk(problems.map(({ field, message }) => `${field}: ${message}`).join('; '));
const bulkBody = readBodyBy(refuseBulk);
/** The list's query string, read as the bulk body's filter is (the same fields). */
const listQuery = readBodyBy(
  (problems) =>
    new DomainError(
      400,
      'invalid_request',
      problems.map(({ field, message }) => `${field}: ${message}`).join('; '),
    ),
  'querystring',
);

/**
 * Who may take each bulk action: whom the single-post route that does it lets in. Refused, every
 * post it names is skipped with the refusal's words.
 */
const BULK_ACCESS: Record<BulkAction, DeskAccess> = {
  unpublish: 'publisher',
  delete: 'owner-change',
  restore: 'owner-change',
  move: 'staff',
  addTopic: 'staff',
  removeTopic: 'staff',
  visibility: 'staff',
};

export interface DeskPostOptions {
  siteUrl: string;
  siteName: string;
  /** Who publishes (owners and editors): told by mail when a writer submits a draft. */
  publishers: readonly string[];
}

/**
 * The mail that tells a publisher a draft waits for them: who submitted what, and where to read
 * and publish it.
 */
export function submittedMail(
  post: { id: number; title: string },
  by: string,
  to: string,
  site: { siteUrl: string; siteName: string },
) {
  return {
    to,
    subject: `Ready for review: “${post.title}”`,
    text:
      `${by} submitted “${post.title}” for publishing on ${site.siteName}.\n\n` +
      `Read it, change what it needs, and publish or schedule it from the desk:\n\n` +
      `${site.siteUrl}/desk/posts/${post.id}\n`,
  };
}

/**
 * The desk's posts (decision 16): every staff member writes; editors and owners publish; owners
 * delete (each route says who may call it: `config.access`). A save naming a stale version
 * answers 409 `edit_conflict` with the post as it is now (the store's DomainError carries it to the
 * one error handler). A change the site shows is drawn on this server before the answer (each
 * write declares `changesContent`: its answer waits for the change's content generation), and on
 * the others when they learn of that generation.
 */
const deskPostRoutes: FastifyPluginAsyncTypebox<DeskPostOptions> = async (app, options) => {
  /** Who is acting, for the store's rights and the audit log. */
  const actor = (request: FastifyRequest): Actor => {
    const staff = deskStaff(request);
    return { userId: staff.userId, email: staff.email, role: staff.role };
  };
  /**
   * A changed post's answer (sent once this server draws the change: `changesContent`), with a
   * warning for each card its body names that could not be read.
   */
  const shown = ({ post, unreadCards = [] }: PostChange) => ({
    post,
    ...(unreadCards.length > 0 && {
      warnings: unreadCards.map((card): PublishWarning => ({
        field: 'body',
        label: fieldLabel(post.kind, 'body'),
        message: describeUnreadCard(card),
      })),
    }),
  });

  app.get(
    '/posts',
    {
      schema: {
        querystring: Type.Object({
          ...postFilterFields,
          limit: Type.Optional(Type.String({ maxLength: 10 })),
          /** The `nextCursor` of the page before. */
          cursor: Type.Optional(Type.String({ maxLength: 200 })),
        }),
      },
      validatorCompiler: listQuery,
      config: { access: 'staff' },
    },
    async (request) => {
      const { kind, status, q, text, cursor } = request.query;
      const limit = readQueryNumber(request.query.limit, 'limit', {
        min: 1,
        max: 500,
        fallback: 50,
      });
      return listPosts(app.db.pool, {
        ...(kind && { kind }),
        ...(status && { status }),
        text: q ?? text,
        limit,
        ...(cursor !== undefined && { cursor }),
      });
    },
  );

  app.post(
    '/posts',
    {
      schema: { body: NewPostBodySchema },
      validatorCompiler: postBody,
      bodyLimit: MAX_POST_REQUEST_BYTES,
      config: { access: 'staff', changesContent: true },
    },
    async (request, reply) => {
      const change = await createPost(app.db.pool, actor(request), request.body, app.cardReader);
      return reply.code(201).send(shown(change));
    },
  );

  app.get(
    '/posts/:id',
    { schema: { params: Id }, config: { access: 'staff' } },
    async (request) => ({
      post: await getPost(app.db.pool, Number(request.params.id)),
    }),
  );

  app.patch(
    '/posts/:id',
    {
      schema: { params: Id, body: PostChangeBodySchema },
      validatorCompiler: postBody,
      bodyLimit: MAX_POST_REQUEST_BYTES,
      config: { access: 'staff', changesContent: true },
    },
    async (request) =>
      shown(
        await updatePost(
          app.db.pool,
          actor(request),
          Number(request.params.id),
          request.body,
          app.cardReader,
        ),
      ),
  );

  // What publishing would still refuse of the post with these unsaved changes, by the editor's
  // labels: the preview draws a draft whatever it lacks, and the desk names these over it.
  app.post(
    '/posts/:id/preview/warnings',
    {
      schema: { params: Id, body: PostPreviewBodySchema },
      validatorCompiler: postBody,
      bodyLimit: MAX_POST_REQUEST_BYTES,
      config: { access: 'staff' },
    },
    async (request) => {
      const { warnings } = await previewPost(
        app.db.pool,
        Number(request.params.id),
        request.body as Record<string, unknown>,
      );
      return { warnings };
    },
  );

  app.post(
    '/posts/:id/publish',
    {
      schema: { params: Id, body: PublishBodySchema },
      validatorCompiler: postBody,
      config: { access: 'publisher', changesContent: true },
    },
    async (request) => {
      const result = await publishPost(
        app.db.pool,
        actor(request),
        Number(request.params.id),
        request.body,
      );
      if (result.scheduledFor) {
        await app.postSchedule.publishAt(result.post.id, result.scheduledFor);
      }
      return shown(result);
    },
  );

  app.post(
    '/posts/:id/unpublish',
    {
      schema: { params: Id, body: VersionBodySchema },
      validatorCompiler: postBody,
      config: { access: 'publisher', changesContent: true },
    },
    async (request) =>
      shown(
        await unpublishPost(app.db.pool, actor(request), Number(request.params.id), request.body),
      ),
  );

  app.post(
    '/posts/:id/submit',
    {
      schema: { params: Id, body: VersionBodySchema },
      validatorCompiler: postBody,
      config: { access: 'staff' },
    },
    async (request) => {
      const by = actor(request);
      const post = await submitPost(app.db.pool, by, Number(request.params.id), request.body);
      // Each publisher but the one submitting is told; a mail that fails is logged and the
      // submission stands (the draft is marked on the posts list either way).
      const to = options.publishers.filter((email) => email !== by.email);
      for (const email of to) {
        void app.mailer
          .send(submittedMail(post, by.email, email, options))
          .catch((error: unknown) =>
            request.log.error({ err: error }, 'could not tell a publisher of a submitted draft'),
          );
      }
      return { post };
    },
  );

  const deskTopic = ({ slug, name, count, description, written }: DeskTopic): DeskTopic => ({
    slug,
    name,
    count,
    description,
    written,
  });

  app.get('/topics', { config: { access: 'staff' } }, async () => ({
    topics: [...app.siteContent.current().topics.values()].map(deskTopic),
  }));

  /**
   * The tiers a post may be for, in their order, hidden ones too, for every staff member who
   * writes (the tiers' own page, with members and money, is owners' and editors').
   */
  app.get(
    '/posts/tiers',
    {
      schema: {
        response: {
          200: Type.Object({
            tiers: Type.Array(
              Type.Object({ slug: Type.String(), name: Type.String(), visible: Type.Boolean() }),
            ),
          }),
        },
      },
      config: { access: 'staff' },
    },
    async (): Promise<{ tiers: PostTierChoice[] }> => ({
      tiers: (await readTiers(app.db.pool)).map(({ slug, name, visible }) => ({
        slug,
        name,
        visible,
      })),
    }),
  );

  app.put(
    '/topics/:slug',
    {
      schema: {
        params: Type.Object({ slug: Type.String({ maxLength: 80 }) }),
        body: TopicBodySchema,
      },
      validatorCompiler: topicBody,
      config: { access: 'publisher', changesContent: true },
    },
    async (request) => {
      const { slug } = request.params;
      if (!app.siteContent.current().topics.has(slug)) {
        throw new HttpError(404, 'not_found', 'No published post has this topic.');
      }
      const generation = await describeTopic(
        app.db.pool,
        actor(request),
        slug,
        request.body.description,
      );
      // The answer is the topic as the site now draws it (a blank description is the page's own
      // sentence): drawn here, before the answer is made, not only before it leaves.
      await app.siteContent.waitFor(generation);
      const topic = app.siteContent.current().topics.get(slug);
      if (!topic) throw new HttpError(404, 'not_found', 'No published post has this topic.');
      return { topic: deskTopic(topic) };
    },
  );

  app.delete(
    '/posts/:id',
    { schema: { params: Id }, config: { access: 'owner-change', changesContent: true } },
    async (request, reply) => {
      await deletePost(app.db.pool, actor(request), Number(request.params.id));
      await app.postTrash.purgeLater(new Date());
      return reply.code(204).send();
    },
  );

  // Many posts at once: each by its single route's rules and service (content/post-bulk.ts).
  app.post(
    '/posts/bulk',
    {
      schema: { body: PostBulkBodySchema },
      validatorCompiler: bulkBody,
      config: { access: 'staff', limit: 'desk-posts-bulk', changesContent: true },
    },
    async (request): Promise<BulkResult> => {
      const { body } = request;
      const problems = bulkBodyProblems(body);
      if (problems.length > 0) throw refuseBulk(problems);
      const ids = await selectBulkPosts(app.db.pool, body);
      const target = await readBulkTarget(app.db.pool, body, app.siteContent.current().topics);
      try {
        requireDeskAccess(deskStaff(request), BULK_ACCESS[body.action]);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return { done: 0, skipped: ids.map((id) => ({ id, reason: error.message })) };
      }
      const { done, skipped, scheduled } = await actOnPosts(
        app.db.pool,
        actor(request),
        ids,
        target,
      );
      for (const { id, at } of scheduled) await app.postSchedule.publishAt(id, at);
      if (body.action === 'delete' && done > 0) await app.postTrash.purgeLater(new Date());
      return { done, skipped };
    },
  );

  app.get(
    '/posts/:id/revisions',
    { schema: { params: Id }, config: { access: 'staff' } },
    async (request) => ({
      revisions: await listRevisions(app.db.pool, Number(request.params.id)),
    }),
  );

  app.get(
    '/posts/:id/revisions/:revision',
    { schema: { params: IdAndRevision }, config: { access: 'staff' } },
    async (request) => ({
      revision: await readRevision(
        app.db.pool,
        Number(request.params.id),
        Number(request.params.revision),
      ),
    }),
  );

  app.post(
    '/posts/:id/revisions/:revision/restore',
    {
      schema: { params: IdAndRevision, body: RestoreBodySchema },
      validatorCompiler: postBody,
      config: { access: 'staff', changesContent: true },
    },
    async (request) => {
      const id = Number(request.params.id);
      const revision = Number(request.params.revision);
      return shown(await restoreRevision(app.db.pool, actor(request), id, revision, request.body));
    },
  );
};

export default deskPostRoutes;
