import { fileURLToPath } from 'node:url';

// This file sits two levels below the project root both as server/src/paths.ts and, compiled, as
// dist/server/paths.js, so one relative URL finds the root in development and in production.
export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
export const migrationsDir = fileURLToPath(new URL('../../prisma/migrations/', import.meta.url));
export const clientDistDir = fileURLToPath(new URL('../../dist/client/', import.meta.url));
