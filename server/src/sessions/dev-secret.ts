import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Development only: a random signing key kept in the data folder, so sessions survive restarts. */
export async function readOrCreateDevSecret(dataDir: string): Promise<string> {
  const file = join(dataDir, 'session-secret');
  try {
    const secret = (await readFile(file, 'utf8')).trim();
    if (secret.length >= 32) return secret;
  } catch {
    // Not created yet.
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
