import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  NewsletterIssueBodySchema,
  NewsletterIssueParamsSchema,
} from '../../../../contract/newsletters.js';
import { HttpError } from '../../http/errors.js';
import { requireAccess } from '../../plugins/app/route-access.js';

/**
 * An issue's body for the archive's page. Public issues' bodies are in the page already; a
 * members-only issue's body leaves the server only here, and only for a member.
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
      // Anyone: a members-only issue asks the `member` rule of its own (below).
      config: { access: 'anyone', changesState: false, limit: 'newsletter-issues' },
    },
    async (request, reply) => {
      const issue = app.siteContent
        .current()
        .newsletters.find((item) => item.slug === request.params.slug);
      if (!issue) throw new HttpError(404, 'issue_not_found', 'There is no such newsletter issue.');
      if (issue.membersOnly) {
        await requireAccess(request, 'member', {
          message: 'This issue is for members: join to read it in full.',
        });
        // A member's copy: never kept by a shared cache.
        void reply.header('cache-control', 'private, no-store');
      }
      return { slug: issue.slug, body: issue.body };
    },
  );
};

export default newsletterIssueRoutes;
