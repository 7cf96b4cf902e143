import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { UUID_PATTERN } from '../../../../contract/constants.js';
import { apartFromRequest } from '../../content/content-changes.js';
import { readArticleSectionNames } from '../../content/section-store.js';
import {
  DeskImportSchema,
  DeskImportsSchema,
  IMPORT_SOURCE_NAMES,
  type DeskImport,
  type DeskImportReport,
  type DeskImportSource,
} from '../../../../contract/desk-api.js';
import { withTransaction } from '../../db/transaction.js';
import { writeAudit } from '../../staff/audit.js';
import { HttpError } from '../../http/errors.js';
import { countGhostExport, ghostExportStream } from '../../imports/ghost-export.js';
import { ghostExportZip } from '../../imports/ghost-export-zip.js';
import {
  alreadyRunning,
  failInterruptedImports,
  failStaleImports,
  findRunningImport,
  listImportJobs,
  readImportJob,
  runImportJob,
  startImportJob,
  type ImportJob,
} from '../../imports/import-jobs.js';
import { checkPriceMap } from '../../imports/member-stripe.js';
import type { ImportReport } from '../../imports/source.js';
import { deskStaff } from './desk-staff.js';

/** How long a refused upload's rest is read (and dropped) before its connection is cut. */
const LINGER_MS = 5_000;

/** Room for the multipart framing and the other fields around the file. */
const FRAMING_BYTES = 16 * 1024;

const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  413: ErrorResponseSchema,
};

/** What each platform's file is, for the messages (the Import page says the same). */
const FILE_HINT =
  'Ghost: the .json export or the .zip; WordPress: the .xml export (WXR); Substack and Medium: the export .zip; members: a .csv';

const tooLarge = (maxBytes: number) =>
  new HttpError(
    413,
    'file_too_large',
    `The file is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB an import takes (IMPORT_MAX_MB): import it with \`npm run import\` on the server instead.`,
    { connection: 'close' },
  );

const badRequest = (message: string) => new HttpError(400, 'invalid_import', message);

/** The most tag→section and price mappings one import takes (each its own field). */
const MAX_MAPPINGS = 50;

/**
 * A mapping field's `<name>=<value>`, as `npm run import` reads `--map` and `--price` (split at the
 * last `=`); a 400 naming the field otherwise.
 */
function pairOf(field: 'map' | 'price', value: string): [string, string] {
  const at = value.lastIndexOf('=');
  const name = value.slice(0, at).trim();
  const target = value.slice(at + 1).trim();
  if (at <= 0 || name === '' || target === '') {
    const example = field === 'map' ? 'news=Health' : 'price_123=founder/yearly';
    throw badRequest(
      `Each "${field}" is <${field === 'map' ? 'tag' : 'Stripe price id'}>=<${field === 'map' ? 'section' : '[tier/]plan'}>, as in ${example} (not "${value.slice(0, 60)}").`,
    );
  }
  return [name, target];
}

/** The `dryRun` field: a check box's words for yes and no. */
function isYes(value: string): boolean {
  const word = value.trim().toLowerCase();
  if (['true', 'on', '1', 'yes'].includes(word)) return true;
  if (['false', 'off', '0', 'no', ''].includes(word)) return false;
  throw badRequest(`"dryRun" is true or false (not "${value.slice(0, 20)}").`);
}

/** The upload's name, kept for its extension (the readers tell a .zip from a .json by it). */
function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(-120);
  return cleaned || 'upload';
}

function sourceNamed(value: string): DeskImportSource {
  const source = IMPORT_SOURCE_NAMES.find((name) => name === value.trim().toLowerCase());
  if (!source) {
    throw badRequest(
      `Choose what the file comes from: ${IMPORT_SOURCE_NAMES.join(', ')} (not "${value.slice(0, 40)}").`,
    );
  }
  return source;
}

/** A section of articles the site has (`sections`, the sections table's), or none for a blank. */
function sectionNamed(value: string, sections: readonly string[]): string | null {
  if (value.trim() === '') return null;
  const section = sections.find((name) => name.toLowerCase() === value.trim().toLowerCase());
  if (!section) {
    throw badRequest(
      `There is no section "${value.slice(0, 40)}": the sections are ${sections.join(', ')}.`,
    );
  }
  return section;
}

/** The multipart reader's own errors, as the site's. */
function asUploadError(error: unknown, maxBytes: number): unknown {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  if (typeof code === 'string' && code.startsWith('FST_')) {
    return badRequest(
      `Send the fields "source" and "section", then one file in "file". ${FILE_HINT}.`,
    );
  }
  // The sender went away mid-file: nothing to import, and nothing for the server's log.
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return badRequest('The upload was cut off before the whole file arrived: send it again.');
  }
  return error;
}

function viewOf(job: ImportJob): DeskImport {
  return {
    id: job.id,
    status: job.status,
    progress: job.progress,
    report: job.report,
    error: job.error,
    source: job.source,
    section: job.section,
    fileName: job.fileName,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

/** The server's report is the one the desk shows (contract/desk-api.ts): kept in step here. */
const sameReport = (report: ImportReport): DeskImportReport => report;
void sameReport;

/**
 * The desk's imports and the Ghost export, for owners only (an import, by one signed in within 12
 * hours): an import writes posts and members, and the export holds every member and every
 * members-only text.
 *
 * `POST /imports` streams the uploaded file to a folder of its own under the system's temporary
 * folder (never into memory whole), refuses more than IMPORT_MAX_MB with 413 (by Content-Length
 * before reading, else when the stream passes it), answers 202 `{import: {id}}`, and runs the
 * import in this process in the background (server/src/imports/import-jobs.ts). Beside `source`,
 * `section` and `file` it takes what `npm run import` takes: `dryRun`, and repeated `map`
 * (`<tag>=<section>`) and `price` (`<price id>=[<tier>/]<plan>`) fields, checked before it starts.
 * One at a time: 409 while another runs. `GET /imports/:id` and `GET /imports` tell how it goes,
 * each with its whole report as the `imports` table keeps it.
 */
const deskImportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app;
  const maxBytes = config.importMaxBytes;
  const pool = app.db.pool;
  /** The imports this process runs, by id: marked failed if the server closes first. */
  const running = new Set<string>();

  await app.register(multipart, {
    limits: {
      files: 1,
      fileSize: maxBytes,
      // source, section, dryRun, and each mapping.
      fields: 3 + 2 * MAX_MAPPINGS,
      fieldSize: 1024,
      parts: 4 + 2 * MAX_MAPPINGS,
      headerPairs: 100,
    },
  });

  // A refused upload's unread rest is read and dropped for a few seconds after the answer, then
  // the connection goes (as the image uploads do, uploads.ts: cut at once, the sender may lose
  // the answer to a reset).
  app.addHook('onResponse', async (request) => {
    if (request.raw.complete) return;
    request.raw.resume();
    setTimeout(() => request.raw.destroy(), LINGER_MS).unref();
  });

  // An import left by a server that stopped (its heartbeat old) is failed as this one starts.
  app.addHook('onReady', async () => {
    const failed = await failStaleImports(pool).catch((error: unknown) => {
      app.log.error({ err: error }, 'could not mark interrupted imports as failed');
      return 0;
    });
    if (failed > 0)
      app.log.warn({ failed }, 'imports interrupted by a server that stopped: failed');
  });

  app.addHook('onClose', async () => {
    await failInterruptedImports(pool, [...running]).catch((error: unknown) =>
      app.log.error({ err: error }, 'could not mark the imports this server ran as failed'),
    );
  });

  app.post(
    '/imports',
    {
      schema: {
        response: { 202: Type.Object({ import: Type.Object({ id: Type.String() }) }), ...errors },
      },
      config: { access: 'owner-change' },
    },
    async (request, reply) => {
      const staff = deskStaff(request);
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes + FRAMING_BYTES) {
        // Said too large up front: refused before a byte of it is read.
        throw tooLarge(maxBytes);
      }
      if (!request.isMultipart()) {
        throw badRequest(
          'Send the file as multipart/form-data: fields "source", "section", "file".',
        );
      }
      const busy = await findRunningImport(pool);
      if (busy) throw alreadyRunning(busy);

      const folder = await mkdtemp(join(tmpdir(), 'cohort-import-'));
      let started = false;
      try {
        let source: DeskImportSource | null = null;
        let section: string | null = null;
        let dryRun = false;
        const map: Record<string, string> = {};
        const prices: Record<string, string> = {};
        let file: { name: string; path: string } | null = null;
        let sections: string[] | null = null;
        const sectionNames = async () => (sections ??= await readArticleSectionNames(pool));
        const addMapping = (into: Record<string, string>, pair: [string, string]) => {
          if (Object.keys(into).length >= MAX_MAPPINGS) {
            throw badRequest(`An import takes at most ${MAX_MAPPINGS} mappings of each kind.`);
          }
          into[pair[0]] = pair[1];
        };
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'file' || file) {
                throw badRequest('Send one file, in the field "file".');
              }
              file = { name: safeFileName(part.filename), path: '' };
              file.path = join(folder, file.name);
              await pipeline(part.file, createWriteStream(file.path));
              if (part.file.truncated) throw tooLarge(maxBytes);
            } else if (part.fieldname === 'source') {
              source = sourceNamed(String(part.value));
            } else if (part.fieldname === 'section') {
              section = sectionNamed(String(part.value), await sectionNames());
            } else if (part.fieldname === 'dryRun') {
              dryRun = isYes(String(part.value));
            } else if (part.fieldname === 'map') {
              const [tag, named] = pairOf('map', String(part.value));
              const target = sectionNamed(named, await sectionNames());
              if (target) addMapping(map, [tag, target]);
            } else if (part.fieldname === 'price') {
              addMapping(prices, pairOf('price', String(part.value)));
            } else {
              throw badRequest(
                `Unknown field "${part.fieldname.slice(0, 40)}": send source, section, dryRun, map, price and file.`,
              );
            }
          }
        } catch (error) {
          throw asUploadError(error, maxBytes);
        }
        if (!source) {
          throw badRequest(`Choose what the file comes from: ${IMPORT_SOURCE_NAMES.join(', ')}.`);
        }
        if (!file) throw badRequest(`Choose the file to import (${FILE_HINT}).`);
        if ((await stat(file.path)).size === 0) throw badRequest('The file is empty.');
        // A wrong price mapping is refused now, as the command refuses it: Stripe is only read.
        await checkPriceMap({ stripe: app.payments?.stripe ?? null }, prices);

        const id = await startImportJob(pool, {
          source,
          section,
          fileName: file.name,
          staff,
        });
        started = true;
        running.add(id);
        // Run apart from this request: the posts it writes are the import's changes, shown as
        // each is written, not this answer's (which leaves at once).
        void apartFromRequest(() =>
          runImportJob(
            {
              pool,
              imageStore: app.imageStore,
              config,
              stripe: app.payments?.stripe ?? null,
              mail: app.mailer,
              schedule: app.postSchedule,
              cards: app.cardReader,
            },
            {
              id,
              request: {
                source,
                path: file.path,
                ...(section && { section }),
                map,
                prices,
                dryRun,
                maxBytes,
              },
              staff,
              folder,
              logError: (error, message) => app.log.error({ err: error, import: id }, message),
            },
          ),
        ).finally(() => running.delete(id));
        return await reply.code(202).send({ import: { id } });
      } finally {
        if (!started) await rm(folder, { recursive: true, force: true });
      }
    },
  );

  app.get(
    '/imports',
    {
      schema: {
        response: { 200: DeskImportsSchema, ...errors },
      },
      config: { access: 'owner' },
    },
    async () => ({ imports: (await listImportJobs(pool)).map(viewOf), maxBytes }),
  );

  app.get(
    '/imports/:id',
    {
      schema: {
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        response: { 200: Type.Object({ import: DeskImportSchema }), ...errors },
      },
      config: { access: 'owner' },
    },
    async (request) => {
      const job = UUID_PATTERN.test(request.params.id)
        ? await readImportJob(pool, request.params.id)
        : null;
      if (!job) {
        throw new HttpError(404, 'not_found', `No import "${request.params.id.slice(0, 40)}".`);
      }
      return { import: viewOf(job) };
    },
  );

  /**
   * Everything as a Ghost export (server/src/imports/ghost-export.ts), streamed as it is read: a
   * zip with the JSON and the images (ghost-export-zip.ts), or with `?format=json` the JSON alone;
   * the download is audited with what it holds.
   */
  app.get(
    '/exports/ghost',
    {
      schema: {
        querystring: Type.Object({
          format: Type.Optional(Type.Union([Type.Literal('zip'), Type.Literal('json')])),
        }),
      },
      config: { access: 'owner' },
    },
    async (request, reply) => {
      const staff = deskStaff(request);
      await withTransaction(pool, async (tx) =>
        writeAudit(tx, staff, {
          action: 'ghost_export',
          targetUserId: null,
          before: null,
          after: await countGhostExport(tx),
        }),
      );
      const host = new URL(config.siteUrl).hostname.replace(/[^A-Za-z0-9.-]+/g, '-');
      const day = new Date().toISOString().slice(0, 10);
      const name = `${host}-ghost-export-${day}`;
      const options = {
        siteUrl: config.siteUrl,
        siteName: app.siteContent.current().settings.title,
        staff: config.staff,
      };
      if (request.query.format === 'json') {
        return reply
          .type('application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}.json"`)
          .send(ghostExportStream(pool, options));
      }
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${name}.zip"`)
        .send(ghostExportZip(pool, app.imageStore, { ...options, jsonName: `${name}.json` }));
    },
  );
};

export default deskImportRoutes;
