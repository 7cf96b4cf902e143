import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { DomainError } from '../domain-error.js';

/**
 * zxcvbn-ts, the password strength estimator, on a worker thread of its own. An estimate is CPU
 * work (a few milliseconds for a passphrase): on the main thread, a burst of sign-ups would hold
 * every other request behind it. The worker runs plain JavaScript from zxcvbn-ts's CommonJS
 * builds, so it starts the same under tsx, Vitest and the built server.
 */

export interface Estimate {
  score: number;
  warning: string | null;
  suggestions: string[];
}

/** Estimates that may wait for the worker; beyond, 503 as for password hashes. */
const MAX_WAITING = 64;

const require = createRequire(import.meta.url);
const modules = {
  core: require.resolve('@zxcvbn-ts/core'),
  common: require.resolve('@zxcvbn-ts/language-common'),
  english: require.resolve('@zxcvbn-ts/language-en'),
};

// Its l33t matcher grows combinatorially (1.8 s of CPU for 256 random characters with the
// defaults): two substitutions and the first 64 characters keep any password under ~20 ms, and
// a password that long is strong anyway.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { ZxcvbnFactory } = require(workerData.core);
const common = require(workerData.common);
const english = require(workerData.english);
const estimator = new ZxcvbnFactory({
  translations: english.translations,
  dictionary: { ...common.dictionary, ...english.dictionary },
  graphs: common.adjacencyGraphs,
  l33tMaxSubstitutions: 2,
  maxLength: 64,
});
parentPort.on('message', ({ id, password, userInputs }) => {
  try {
    const result = estimator.check(password, userInputs);
    parentPort.postMessage({
      id,
      score: result.score,
      warning: result.feedback.warning || null,
      suggestions: result.feedback.suggestions,
    });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;

interface Pending {
  resolve(estimate: Estimate): void;
  reject(error: Error): void;
}

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

function startWorker(): Worker {
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: modules });
  started.unref(); // never keeps the process alive on its own
  started.on('message', (message: Estimate & { id: number; error?: string }) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(`password estimate failed: ${message.error}`));
    else waiting.resolve(message);
  });
  started.on('error', (error) => failAll(error));
  started.on('exit', () => {
    if (worker === started) worker = undefined;
    failAll(new Error('the password estimator stopped'));
  });
  return started;
}

function failAll(error: Error) {
  for (const waiting of pending.values()) waiting.reject(error);
  pending.clear();
}

/** Starts the worker now, so the first sign-up does not wait for its dictionaries to load. */
export function prepareStrengthEstimator(): void {
  worker ??= startWorker();
}

/** Stops the worker (tests, shutdown). */
export async function stopStrengthEstimator(): Promise<void> {
  const running = worker;
  worker = undefined;
  await running?.terminate();
}

export function estimateStrength(password: string, userInputs: string[]): Promise<Estimate> {
  if (pending.size >= MAX_WAITING) {
    return Promise.reject(
      new DomainError(
        503,
        'busy',
        'The site is very busy signing people in: please try again in a few seconds.',
        {},
        2,
      ),
    );
  }
  worker ??= startWorker();
  const id = (nextId += 1);
  return new Promise<Estimate>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker?.postMessage({ id, password, userInputs });
  });
}
