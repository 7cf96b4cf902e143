import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ghostTypeOfStatus } from '../ghost-api/ghost-error.js';
import type { ErrorDescription } from './errors.js';

/**
 * Ghost's error shape (docs/ghost-api.md), written from the one description of an error:
 * `{errors: [{message, context, type, details, property, help, code, id, ghostErrorCode}]}`.
 * Ghost's clients read `type` (its error class name); `code` carries Ghost's own upper-case codes
 * (`INVALID_JWT`) and never the site's snake_case ones.
 */
export function ghostErrorBody(described: ErrorDescription) {
  const { status, code, message } = described;
  return {
    errors: [
      {
        message,
        context: described.ghostContext ?? null,
        type: described.ghostType ?? ghostTypeOfStatus(status),
        details: null,
        property: described.field ?? null,
        help: null,
        code: code === code.toUpperCase() ? code : null,
        id: randomUUID(),
        ghostErrorCode: null,
      },
    ],
  };
}

/**
 * Every route of the scope, hooks and body reading included, has its errors written in Ghost's
 * shape by the one error handler (`config.errorFormat`, read in plugins/app/error-handler.ts).
 */
export function answerErrorsAsGhost(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    // A new object: Fastify copies a GET route's options for its HEAD route.
    route.config = { ...route.config, errorFormat: 'ghost' };
  });
}
