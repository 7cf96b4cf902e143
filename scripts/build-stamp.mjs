// Whether `npm start` must build: a hash of every build input, written next to the build after a
// successful one (dist/.build-stamp), compared at the next start. scripts/start.mjs uses it.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** What a build reads (folders are walked), relative to the project root. */
export const BUILD_INPUTS = [
  'client',
  'server',
  'contract',
  'prisma',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'vite.config.ts',
  'scripts/build-client.mjs',
];

/** What a build writes: if one is missing or not the one stamped, the build is redone. */
export const BUILD_OUTPUTS = [
  'dist/client/index.html',
  'dist/server/src/server.js',
  'dist/ssr/entry-server.js',
];

export const STAMP_FILE = 'dist/.build-stamp';

/**
 * Held while one process builds (its pid inside), so two app servers started at once from a
 * fresh checkout build once: the second waits, then starts what the first built. Outside dist/,
 * which the build empties.
 */
export const LOCK_FILE = '.build-lock';

// Tests are not built (server/tsconfig.build.json leaves them out; Vite never imports them).
const IGNORED = /(^|\/)(node_modules|\.DS_Store)$|\.test\.tsx?$/;

/**
 * A hash of every input file's path and content: equal when nothing that builds has changed
 * (a checkout or a save that changes no byte changes nothing).
 * @param {string} root
 * @param {readonly string[]} [inputs]
 * @returns {Promise<string>}
 */
export async function hashBuildInputs(root, inputs = BUILD_INPUTS) {
  const hash = createHash('sha256');
  const files = (await Promise.all(inputs.map((input) => listFiles(root, input)))).flat().sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * Each output's size and modification time, so a build made some other way is noticed.
 * @param {string} root
 * @param {readonly string[]} outputs
 * @returns {Promise<Record<string, string> | null>}
 */
async function describeOutputs(root, outputs) {
  /** @type {Record<string, string>} */
  const described = {};
  for (const output of outputs) {
    const info = await stat(join(root, output)).catch(() => null);
    if (!info) return null;
    described[output] = `${info.size}:${info.mtimeMs}`;
  }
  return described;
}

/**
 * Why a build is needed (a sentence), or null when the last build is of these very sources.
 * `inputsHash` is hashBuildInputs' answer for the sources as they are now.
 * @param {string} root
 * @param {string} inputsHash
 * @param {readonly string[]} [outputs]
 * @returns {Promise<string | null>}
 */
export async function reasonToBuild(root, inputsHash, outputs = BUILD_OUTPUTS) {
  const stamp = await readFile(join(root, STAMP_FILE), 'utf8')
    .then((text) => JSON.parse(text))
    .catch(() => null);
  if (!stamp) return 'no earlier build';
  const current = await describeOutputs(root, outputs);
  if (!current) return 'the build output is missing';
  if (JSON.stringify(current) !== JSON.stringify(stamp.outputs)) {
    return 'the build output changed since the last start';
  }
  if (stamp.inputs !== inputsHash) return 'the sources changed since the last build';
  return null;
}

/**
 * Records a successful build of the sources whose hash is `inputsHash`.
 * @param {string} root
 * @param {string} inputsHash
 * @param {readonly string[]} [outputs]
 */
export async function writeBuildStamp(root, inputsHash, outputs = BUILD_OUTPUTS) {
  const described = await describeOutputs(root, outputs);
  if (!described) throw new Error('The build did not write all of its output');
  await writeFile(
    join(root, STAMP_FILE),
    `${JSON.stringify({ inputs: inputsHash, outputs: described })}\n`,
  );
}

/**
 * @param {string} root
 * @param {string} input
 * @returns {Promise<string[]>}
 */
async function listFiles(root, input) {
  const path = join(root, input);
  const info = await stat(path).catch(() => null);
  if (!info) return [];
  if (!info.isDirectory()) return [input];
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((file) => !IGNORED.test(file));
}

/** @param {number} pid */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * Runs `work` holding the build lock: waits while another live process holds it, takes over a
 * lock whose process is gone (a build killed half-way).
 * @template T
 * @param {string} root
 * @param {() => Promise<T>} work
 * @param {() => void} [onWait] called once if another process is building
 * @returns {Promise<T>}
 */
export async function withBuildLock(root, work, onWait) {
  const lock = join(root, LOCK_FILE);
  let waited = false;
  for (;;) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    }
    const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
    if (holder > 0 && holder !== process.pid && isRunning(holder)) {
      if (!waited) onWait?.();
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } else {
      // Its builder is gone (or it was never finished being written): take it over.
      await rm(lock, { force: true });
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

/**
 * Builds when the last build is not of these sources (or always, with `force`), under the build
 * lock, and stamps the result: what `npm start` and `npm run build` both do. Answers why it
 * built, or null when the last build was already of these sources.
 * @param {string} root
 * @param {{ build: () => Promise<void>, force?: boolean, onWait?: () => void,
 *   inputs?: readonly string[], outputs?: readonly string[] }} options
 * @returns {Promise<string | null>}
 */
export async function buildOnce(root, options) {
  const { build, force = false, onWait, inputs = BUILD_INPUTS, outputs = BUILD_OUTPUTS } = options;
  return withBuildLock(
    root,
    async () => {
      // Decided under the lock: a start that waited finds the build the other one just made.
      const inputsHash = await hashBuildInputs(root, inputs);
      const reason = force ? 'asked to' : await reasonToBuild(root, inputsHash, outputs);
      if (!reason) return null;
      await build();
      await writeBuildStamp(root, inputsHash, outputs);
      return reason;
    },
    onWait,
  );
}
