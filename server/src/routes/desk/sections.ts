import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  LinkChangeSchema,
  LinkCreateSchema,
  SectionChangeSchema,
  SectionCreateSchema,
  SectionSchema,
  SiteLinkSchema,
} from '../../../../contract/sections-api.js';
import { changeLink, createLink, deleteLink } from '../../content/link-store.js';
import {
  changeSection,
  createSection,
  deleteSection,
  readNavigation,
} from '../../content/section-store.js';
import { requireChangeAllowed } from '../../desk/staff.js';
import { deskStaff } from './desk-staff.js';

/** The sections and links, as the desk lists them (and as a deletion leaves them). */
const Listed = Type.Object({
  sections: Type.Array(SectionSchema),
  links: Type.Array(SiteLinkSchema),
});
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const Id = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,8}$' }) });
const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
};

/**
 * The site's sections and its navbar's and footer's links (docs/publishing.md, "Sections and the menu"). Every staff member reads
 * them (the editor's Section offers the sections of articles); a change (any method but GET) is an
 * owner's, signed in within 12 hours, which this scope's hook says once. Each change is audited
 * and drawn on this server before the answer (it waits for the change's content generation).
 */
const deskSectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', async (request) => {
    if (!SAFE_METHODS.has(request.method)) requireChangeAllowed(deskStaff(request));
  });

  app.get(
    '/sections',
    {
      schema: { response: { 200: Listed } },
    },
    async () => readNavigation(app.db.pool),
  );

  app.post(
    '/sections',
    {
      schema: {
        body: SectionCreateSchema,
        response: { 201: Type.Object({ section: SectionSchema }), ...errors },
      },
    },
    async (request, reply) => {
      const { section, generation } = await createSection(
        app.db.pool,
        deskStaff(request),
        request.body,
      );
      await app.siteContent.waitFor(generation);
      return reply.code(201).send({ section });
    },
  );

  app.patch(
    '/sections/:id',
    {
      schema: {
        params: Id,
        body: SectionChangeSchema,
        response: { 200: Type.Object({ section: SectionSchema }), ...errors },
      },
    },
    async (request) => {
      const { section, generation } = await changeSection(
        app.db.pool,
        deskStaff(request),
        Number(request.params.id),
        request.body,
      );
      await app.siteContent.waitFor(generation);
      return { section };
    },
  );

  app.delete(
    '/sections/:id',
    { schema: { params: Id, response: { 200: Listed, ...errors } } },
    async (request) => {
      const id = Number(request.params.id);
      await app.siteContent.waitFor(await deleteSection(app.db.pool, deskStaff(request), id));
      return readNavigation(app.db.pool);
    },
  );

  app.post(
    '/links',
    {
      schema: {
        body: LinkCreateSchema,
        response: { 201: Type.Object({ link: SiteLinkSchema }), ...errors },
      },
    },
    async (request, reply) => {
      const { link, generation } = await createLink(app.db.pool, deskStaff(request), request.body);
      await app.siteContent.waitFor(generation);
      return reply.code(201).send({ link });
    },
  );

  app.patch(
    '/links/:id',
    {
      schema: {
        params: Id,
        body: LinkChangeSchema,
        response: { 200: Type.Object({ link: SiteLinkSchema }), ...errors },
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const { link, generation } = await changeLink(
        app.db.pool,
        deskStaff(request),
        id,
        request.body,
      );
      await app.siteContent.waitFor(generation);
      return { link };
    },
  );

  app.delete(
    '/links/:id',
    { schema: { params: Id, response: { 200: Listed, ...errors } } },
    async (request) => {
      const id = Number(request.params.id);
      await app.siteContent.waitFor(await deleteLink(app.db.pool, deskStaff(request), id));
      return readNavigation(app.db.pool);
    },
  );
};

export default deskSectionRoutes;
