import type { FastifyPluginAsync } from 'fastify';
import { postPath } from '../../../../contract/posts.js';
import { VISITOR, type Reader } from '../../../../contract/reading.js';
import { FIRST_TIER_SLUG } from '../../../../contract/tiers.js';
import { previewPost } from '../../content/post-publishing.js';
import { ARTWORK_PREFIX } from '../../content/site-content.js';
import { DomainError } from '../../domain-error.js';
import { HttpError } from '../../http/errors.js';

/** A preview's form: a post's JSON (up to 200,000 characters of body), URL-encoded. */
const PREVIEW_BODY_LIMIT = 2 * 1024 * 1024;

/** Why a post cannot be previewed yet, as the page the preview frame shows. */
function previewProblemPage(message: string): string {
  const text = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Preview</title><body style="font:16px/1.5 system-ui,sans-serif;margin:2rem;color:#141414"><h1 style="font-size:1.25rem">Not ready to preview</h1><p>${text}</p><p>Fill in what is missing, then preview again.</p></body></html>`;
}

/**
 * `POST /api/desk/posts/:id/preview`: the desk's preview of a post with its unsaved changes, a
 * form (`as`, `post`: the changes as JSON) posted into the desk's frame, for every staff member.
 * It answers the page the post would be, as a visitor or a member sees it, drawn now from the
 * site's pages (site-pages-plugin.ts) and saving nothing; what the post still lacks, as a page
 * saying so.
 */
const deskPostPreviewRoutes: FastifyPluginAsync = async (app) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: PREVIEW_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.post<{ Params: { id: string }; Body: Record<string, string> }>(
    '/posts/:id/preview',
    { config: { access: 'staff' } },
    async (request, reply) => {
      const id = /^[1-9][0-9]{0,8}$/.test(request.params.id) ? Number(request.params.id) : 0;
      const body = request.body as Record<string, unknown> | undefined;
      const as = body?.as === 'member' ? 'member' : 'public';
      let changes: unknown;
      try {
        changes = JSON.parse(typeof body?.post === 'string' ? body.post : '{}');
      } catch {
        changes = null;
      }
      if (!id || typeof changes !== 'object' || changes === null || Array.isArray(changes)) {
        throw new HttpError(400, 'invalid_preview', 'Send the post as JSON in the field "post".');
      }
      const pages = app.sitePages.current();
      if (!pages) throw new HttpError(503, 'not_built', 'The site is not built.');
      void reply.type('text/html; charset=utf-8');
      try {
        // A draft is drawn whatever publishing still needs: the desk asks for those apart
        // (POST /api/desk/posts/:id/preview/warnings) and names them over the frame.
        const { row: post } = await previewPost(
          app.db.pool,
          id,
          changes as Record<string, unknown>,
        );
        const content = await app.siteContent.preview(post);
        const path = postPath(
          { kind: post.kind, slug: post.slug, category: post.fields.category },
          content.sectionSlugs,
          content.specialSlugs,
        );
        // "As a member": as a reader the post's rule lets in (of its first tier, for a tier's post).
        const reader: Reader =
          as === 'member' ? { signedIn: true, tier: post.tiers[0] ?? FIRST_TIER_SLUG } : VISITOR;
        let html = await pages.drawPreview(content, path, reader);
        // Artwork the site does not serve yet (a new slug's) goes into the page itself.
        const served = app.siteContent.current().artwork;
        for (const [file, svg] of content.artwork) {
          if (served.has(file) || !html.includes(file)) continue;
          const inline = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
          html = html.replaceAll(`${ARTWORK_PREFIX}${file}`, () => inline);
        }
        return reply.send(html);
      } catch (error) {
        // What the post still lacks, on the page the writer is looking at.
        if (error instanceof DomainError) {
          return reply.code(error.status).send(previewProblemPage(error.message));
        }
        if (!(error instanceof HttpError)) throw error;
        return reply.code(error.statusCode).send(previewProblemPage(error.message));
      }
    },
  );
};

export default deskPostPreviewRoutes;
