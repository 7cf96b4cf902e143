import { writeSync } from 'node:fs';

/**
 * Where the server's log lines go: standard output, one write each, never waiting. A line that
 * cannot be written at once (a pipe nobody reads any more: EAGAIN; a closed one: EPIPE) is dropped
 * and counted. pino's own destination would instead retry a full pipe in a loop that blocks the
 * event loop, so a server whose parent had gone never reached its shutdown timer.
 */
export function stdoutLogDestination(fd = 1): { write(line: string): void; dropped(): number } {
  let dropped = 0;
  return {
    write(line: string) {
      let rest = Buffer.from(line);
      try {
        while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
      } catch {
        dropped += 1;
      }
    },
    dropped: () => dropped,
  };
}
