/** What the process does once told to stop (or once something threw that nothing caught). */
export interface ShutdownOptions {
  /** Stops accepting, lets in-flight requests finish, closes the database: the orderly part. */
  close(): Promise<void>;
  /** After this, the process exits with 1 whatever `close` is doing. */
  forceAfterMs: number;
  /** Writes one line; may throw (standard output gone): a log line never stops the exit. */
  log(level: 'info' | 'error', message: string, error?: unknown): void;
  /** `process.exit`, unless a test says otherwise. */
  exit?(code: number): void;
}

/**
 * On SIGTERM or SIGINT, and on an uncaught exception or unhandled rejection: close in order, then
 * exit 0 (1 after an error). A second signal exits at once. The force-exit timer starts before
 * anything else and is unref'd: it never keeps an otherwise finished process alive, and it fires
 * even when `close` hangs, since no log write can block the event loop (http/log-destination.ts).
 */
export function exitGracefully(options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = (level: 'info' | 'error', message: string, error?: unknown) => {
    try {
      options.log(level, message, error);
    } catch {
      // Nowhere to write: exit all the same.
    }
  };
  let stopping = false;
  const stop = (reason: string, error?: unknown) => {
    if (stopping) {
      log('error', `${reason} while shutting down: exiting now`, error);
      exit(1);
      return;
    }
    stopping = true;
    const code = error === undefined ? 0 : 1;
    setTimeout(() => {
      log('error', `still shutting down after ${options.forceAfterMs} ms: exiting now`);
      exit(1);
    }, options.forceAfterMs).unref();
    if (error === undefined) log('info', `${reason} received, shutting down`);
    else log('error', `shutting down after ${reason}`, error);
    options.close().then(
      () => exit(code),
      (closeError: unknown) => {
        log('error', 'could not shut down in order', closeError);
        exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
  process.on('uncaughtException', (error) => stop('an uncaught exception', error));
  process.on('unhandledRejection', (error) => stop('an unhandled rejection', error));
}
