import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCommand } from '#test/run-command';
import { commandWithSubcommands, fail, printerOf, singleCommand } from './command-line.js';

const USAGE = 'usage:\n  demo greet <name>\n  demo count --to <n>';

const demo = commandWithSubcommands('demo', USAGE, {
  greet: async ([name], _env, io) => {
    if (!name) fail(USAGE, 2);
    printerOf(io).out(`hello ${name}`);
  },
  count: async (args) => {
    const { values } = parseArgs({ args, options: { to: { type: 'string' } }, strict: true });
    return Number(values.to);
  },
  broken: async () => {
    throw new Error('the database went away');
  },
});

describe('an operator command with subcommands', () => {
  it('runs the subcommand named first, with the arguments after it: exit status 0 when it answers nothing', async () => {
    expect(await runCommand(demo, ['greet', 'Ada'], {})).toEqual({
      code: 0,
      stdout: 'hello Ada\n',
      stderr: '',
    });
  });

  it('answers the exit status the subcommand answers', async () => {
    expect((await runCommand(demo, ['count', '--to', '3'], {})).code).toBe(3);
  });

  it('answers any other word, or none, with the usage and exit status 2', async () => {
    for (const argv of [[], ['grete'], ['toString'], ['__proto__']]) {
      expect(await runCommand(demo, argv, {})).toEqual({
        code: 2,
        stdout: '',
        stderr: `${USAGE}\n`,
      });
    }
  });

  it('prints a stated failure as it is, with its exit status', async () => {
    expect(await runCommand(demo, ['greet'], {})).toEqual({
      code: 2,
      stdout: '',
      stderr: `${USAGE}\n`,
    });
  });

  it('names the command and the subcommand before any other failure: exit status 1, no stack trace', async () => {
    expect(await runCommand(demo, ['broken'], {})).toEqual({
      code: 1,
      stdout: '',
      stderr: 'demo broken: the database went away\n',
    });
  });

  it('takes arguments parseArgs refuses for a wrong command: its words, the usage, exit status 2', async () => {
    const run = await runCommand(demo, ['count', '--from', '3'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^demo count: .*--from/);
    expect(run.stderr).toContain(USAGE);
  });
});

describe('an operator command that does one thing', () => {
  it('names only the command before a failure', async () => {
    const single = singleCommand('lone', 'usage: lone', async () => {
      throw new Error('no luck');
    });
    expect(await runCommand(single, [], {})).toEqual({
      code: 1,
      stdout: '',
      stderr: 'lone: no luck\n',
    });
  });
});
