import { afterEach, beforeEach, vi } from 'vitest';

// A test that makes the code under test call console.error fails: an error nobody expected is a
// bug even when the assertions pass. Tests that expect one spy on console.error themselves.
let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error');
});

afterEach(() => {
  const calls = consoleError.mock.calls;
  consoleError.mockRestore();
  if (calls.length > 0) {
    throw new Error(
      `console.error was called:\n${calls.map((args: unknown[]) => args.join(' ')).join('\n')}`,
    );
  }
});
