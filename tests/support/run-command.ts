import type { CommandMain, Output } from '../../server/src/cli/command-line.js';

/** What an operator's command printed, and its exit status. */
export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs an operator's command in this process, through the `main` that scripts/cli.mjs calls: with
 * only the environment given (and PATH), as a shell passes it, not the test process's own.
 */
export async function runCommand(
  main: CommandMain,
  argv: string[],
  env: Record<string, string>,
): Promise<CommandRun> {
  const printed = { stdout: '', stderr: '' };
  const outputTo = (stream: keyof typeof printed): Output => ({
    write(text, done) {
      printed[stream] += text;
      done?.();
      return true;
    },
  });
  const code = await main(
    argv,
    { PATH: process.env.PATH ?? '', ...env },
    { stdout: outputTo('stdout'), stderr: outputTo('stderr') },
  );
  return { code, ...printed };
}
