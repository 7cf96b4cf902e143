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
 * A command's work, or one subcommand's: the arguments after its name. It answers its exit status,
 * or nothing when all went well (0).
 */
export type CommandWork = (
  args: string[],
  env: NodeJS.ProcessEnv,
  io: CommandIo,
) => Promise<number> | Promise<void>;

/**
 * Runs a command's work and answers its exit status. A failure it states (`fail`) is printed as
 * it is; anything else with the command's name first (never a stack trace). Arguments
 * `node:util`'s `parseArgs` refuses are a wrong command: its words, the usage, exit status 2.
 */
async function exitStatusOf(
  name: string,
  usage: string,
  io: CommandIo,
  work: () => Promise<unknown>,
): Promise<number> {
  try {
    const exitStatus = await work();
    return typeof exitStatus === 'number' ? exitStatus : 0;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const wrongArguments = typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
    const failure =
      error instanceof CommandFailure
        ? error
        : new CommandFailure(
            `${name}: ${messageOf(error)}${wrongArguments ? `\n${usage}` : ''}`,
            wrongArguments ? 2 : 1,
          );
    printerOf(io).err(failure.message);
    return failure.exitStatus;
  }
}

/** An operator's command that does one thing (`import <source> <path> …`). */
export function singleCommand(name: string, usage: string, work: CommandWork): CommandMain {
  return (argv, env, io) => exitStatusOf(name, usage, io, () => work(argv, env, io));
}

/**
 * An operator's command made of subcommands (`perks import …`, `perks report`): the one place
 * that picks the subcommand and answers any other word with the usage (exit status 2). A failure
 * names the command and the subcommand.
 */
export function commandWithSubcommands(
  name: string,
  usage: string,
  subcommands: Readonly<Record<string, CommandWork>>,
): CommandMain {
  return ([subcommand, ...rest], env, io) =>
    exitStatusOf(`${name} ${subcommand ?? ''}`, usage, io, async () => {
      const work =
        subcommand !== undefined && Object.hasOwn(subcommands, subcommand)
          ? subcommands[subcommand]
          : undefined;
      if (!work) fail(usage, 2);
      return work(rest, env, io);
    });
}

/** `1 post`, `2 posts`; `words` where the plural is not the word and an s. */
export const plural = (count: number, word: string, words = `${word}s`) =>
  `${count} ${count === 1 ? word : words}`;

/** An error's own words, whatever was thrown. */
export const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : String(error);
