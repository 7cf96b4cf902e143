import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  NewsletterIssueBodySchema,
  NewsletterIssueParamsSchema,
} from '../../../../contract/newsletters.js';
import { mayRead } from '../../../../contract/reading.js';
import { bodyKey } from '../../../../contract/site-data.js';
import { readerOfUser } from '../../content/readers.js';
import { HttpError } from '../../http/errors.js';
import { membersOnlyRefusal, requireAccess } from '../../plugins/app/route-access.js';

/**
 * An issue's body for the archive's page. Public issues' bodies are in the page already; a
 * restricted issue's body leaves the server in its page and here only for a reader who may read
 * it (contract/reading.ts).
 */
const newsletterIssueRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/newsletter/issues/:slug',
    {
      schema: {
        params: NewsletterIssueParamsSchema,
        response: {
          200: NewsletterIssueBodySchema,
          401: ErrorResponseSchema,
          403: ErrorResponseSchema,
          404: ErrorResponseSchema,
        },
      },
      // Anyone: a restricted issue asks its own rule of the reader (below).
      config: { access: 'anyone', changesState: false, limit: 'newsletter-issues' },
    },
    async (request, reply) => {
      const content = app.siteContent.current();
      const issue = content.newsletters.find((item) => item.slug === request.params.slug);
      if (!issue) throw new HttpError(404, 'issue_not_found', 'There is no such newsletter issue.');
      const rule = content.rules.get(bodyKey('newsletter', issue.slug));
      if (rule) {
        // 401 without a session; the members' refusal for a reader the rule keeps out.
        const session = await requireAccess(request, 'session');
        if (!mayRead(rule, readerOfUser(session?.user ?? null))) throw membersOnlyRefusal();
        // A reader's copy: never kept by a shared cache.
        void reply.header('cache-control', 'private, no-store');
      }
      return { slug: issue.slug, body: issue.body };
    },
  );
};

export default newsletterIssueRoutes;
