import { pino, type Logger } from 'pino';
import { ConfigError, parseConfig, type AppConfig } from '../config.js';

/** Something a command writes to: a stream's `write`, whose callback says the text has gone. */
export interface Output {
  write(text: string, done?: (error?: Error | null) => void): boolean;
}

/**
 * Where a command writes: the process's own streams when scripts/cli.mjs runs it, strings when a
 * test calls its `main` in the test's own process.
 */
export interface CommandIo {
  stdout: Output;
  stderr: Output;
}

/**
 * An operator's command: the arguments after its name (`['import', 'harvest-box', 'codes.csv']`
 * for `perks`), the environment it reads its configuration from, and where it writes. It answers
 * its exit status (0 when all went well, 1 when something needs the operator, 2 for a wrong
 * command) rather than ending the process, so a test can run it in its own.
 */
export type CommandMain = (
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CommandIo,
) => Promise<number>;

/** Lines to standard output and standard error, as `console.log` and `console.error` write them. */
export function printerOf(io: CommandIo) {
  return {
    out: (line: string) => void io.stdout.write(`${line}\n`),
    err: (line: string) => void io.stderr.write(`${line}\n`),
  };
}

/** Why a command stopped: one line (or a few) for the operator, and the exit status. */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly exitStatus = 1,
  ) {
    super(message);
    this.name = 'CommandFailure';
  }
}

/** An operator's command stops with one line on standard error, not a stack trace. */
export function fail(message: string, exitStatus = 1): never {
  throw new CommandFailure(message, exitStatus);
}

/** The environment read as the server reads it; a bad value ends the command naming it. */
export function readConfigOrFail(env: NodeJS.ProcessEnv): AppConfig {
  try {
    return parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/**
 * The command's own log (what the database and Stripe code report), to its standard output as
 * the server's goes to the server's; quieter than the server's at `info`, so that a command's
 * output is what it prints.
 */
export function commandLog(config: AppConfig, io: CommandIo): Logger {
  return pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }, io.stdout);
}

/**
 * Runs a command's work and answers its exit status. A failure it states (`fail`) is printed as
 * it is; anything else as `describe` words it (the command's name first: never a stack trace).
 */
export async function exitStatusOf(
  io: CommandIo,
  work: () => Promise<number>,
  describe: (error: unknown) => CommandFailure,
): Promise<number> {
  try {
    return await work();
  } catch (error) {
    const failure = error instanceof CommandFailure ? error : describe(error);
    printerOf(io).err(failure.message);
    return failure.exitStatus;
  }
}

/** An error's own words, whatever was thrown. */
export const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : String(error);
