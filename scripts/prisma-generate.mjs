// Runs `prisma generate` without downloading Prisma's schema engine: Prisma 7's client generator
// does not use that binary, but the CLI insists that one exists. When the engine is already
// available (an operator's machine with network access), it is used as is.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const stubDir = join(tmpdir(), 'cohort-prisma');
  const stub = join(stubDir, 'schema-engine-stub');
  if (!existsSync(stub)) {
    mkdirSync(stubDir, { recursive: true });
    writeFileSync(stub, '#!/bin/sh\necho "schema engine not available" >&2\nexit 1\n', {
      mode: 0o755,
    });
  }
  env.PRISMA_SCHEMA_ENGINE_BINARY = stub;
}

const result = spawnSync('npx', ['--no-install', 'prisma', 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
