import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  DeskSectionSchema,
  DeskSectionsSchema,
  LinkChangeSchema,
  LinkCreateSchema,
  SectionChangeSchema,
  SectionCreateSchema,
  SectionDeleteSchema,
  SectionSchema,
  SiteLinkSchema,
} from '../../../../contract/sections-api.js';
import { changeLink, createLink, deleteLink } from '../../content/link-store.js';
import { deleteSection } from '../../content/section-delete.js';
import {
  changeSection,
  createSection,
  readDeskSections,
  readNavigation,
} from '../../content/section-store.js';
import { deskStaff } from './desk-staff.js';

/** The sections and links, as the desk lists them (and as a deletion leaves them). */
const Listed = Type.Object({
  sections: Type.Array(SectionSchema),
  links: Type.Array(SiteLinkSchema),
});
const Id = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,8}$' }) });
const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
};

/**
 * The site's sections and its navbar's and footer's links (docs/publishing.md, "Sections and the menu"). Every staff member reads
 * them (the editor's Section offers the sections of articles); a change is an owner's, signed in
 * within 12 hours. Each change is audited and drawn on this server before the answer (each
 * declares `changesContent`: the answer waits for the change's content generation).
 */
const deskSectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/sections',
    {
      schema: { response: { 200: DeskSectionsSchema } },
      config: { access: 'staff' },
    },
    async () => readDeskSections(app.db.pool),
  );

  app.post(
    '/sections',
    {
      schema: {
        body: SectionCreateSchema,
        response: { 201: Type.Object({ section: DeskSectionSchema }), ...errors },
      },
      config: { access: 'change', changesContent: true },
    },
    async (request, reply) => {
      const { section } = await createSection(app.db.pool, deskStaff(request), request.body);
      return reply.code(201).send({ section });
    },
  );

  // A change of its words, place or menu, or `podcast` (contract/podcasts.ts): a section of
  // articles made a podcast, changed, or stopped with null.
  app.patch(
    '/sections/:id',
    {
      schema: {
        params: Id,
        body: SectionChangeSchema,
        response: { 200: Type.Object({ section: DeskSectionSchema }), ...errors },
      },
      config: { access: 'change', changesContent: true },
    },
    async (request) => {
      const { section } = await changeSection(
        app.db.pool,
        deskStaff(request),
        Number(request.params.id),
        request.body,
      );
      return { section };
    },
  );

  // Where its posts go, in the query (`?moveTo=wealth`, `?posts=trash`) or a JSON body; a section
  // without posts needs neither (content/section-delete.ts).
  app.delete(
    '/sections/:id',
    {
      schema: {
        params: Id,
        querystring: SectionDeleteSchema,
        body: Type.Union([SectionDeleteSchema, Type.Null()]),
        response: { 200: DeskSectionsSchema, ...errors },
      },
      config: { access: 'change', changesContent: true },
    },
    async (request) => {
      const body = request.body ?? {};
      const { trashed } = await deleteSection(
        app.db.pool,
        deskStaff(request),
        Number(request.params.id),
        { ...request.query, ...body },
      );
      if (trashed > 0) await app.postTrash.purgeLater(new Date());
      return readDeskSections(app.db.pool);
    },
  );

  app.post(
    '/links',
    {
      schema: {
        body: LinkCreateSchema,
        response: { 201: Type.Object({ link: SiteLinkSchema }), ...errors },
      },
      config: { access: 'change', changesContent: true },
    },
    async (request, reply) => {
      const { link } = await createLink(app.db.pool, deskStaff(request), request.body);
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
      config: { access: 'change', changesContent: true },
    },
    async (request) => {
      const id = Number(request.params.id);
      const { link } = await changeLink(app.db.pool, deskStaff(request), id, request.body);
      return { link };
    },
  );

  app.delete(
    '/links/:id',
    {
      schema: { params: Id, response: { 200: Listed, ...errors } },
      config: { access: 'change', changesContent: true },
    },
    async (request) => {
      await deleteLink(app.db.pool, deskStaff(request), Number(request.params.id));
      return readNavigation(app.db.pool);
    },
  );
};

export default deskSectionRoutes;
