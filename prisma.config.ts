import { defineConfig } from 'prisma/config';

// Used by the Prisma CLI only (generate, and migrate deploy/status where the schema engine can be
// downloaded). The app itself connects through @prisma/adapter-pg and applies migrations with
// server/src/db/migrate.ts.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/cohort' },
});
