/**
 * A connection string, and whether it names a PgBouncer (Prisma's convention: `?pgbouncer=true`),
 * which refuses a `statement_timeout` sent when connecting: set it on the database role instead
 * (docs/operating.md, "Any PostgreSQL").
 */
export function parseDatabaseUrl(url: string): { connectionString: string; pgbouncer: boolean } {
  const parsed = new URL(url);
  const pgbouncer = parsed.searchParams.get('pgbouncer') === 'true';
  parsed.searchParams.delete('pgbouncer');
  return { connectionString: parsed.toString(), pgbouncer };
}
