import { existsSync } from 'node:fs';

/**
 * True when a Docker engine answers within a few seconds. Never hangs: without a socket or
 * DOCKER_HOST it answers at once, otherwise it gives testcontainers a bounded time to connect.
 */
export async function isDockerAvailable(timeoutMs = 4_000): Promise<boolean> {
  if (!process.env.DOCKER_HOST && !existsSync('/var/run/docker.sock')) return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Docker did not answer in time')), timeoutMs);
    });
    try {
      await Promise.race([getContainerRuntimeClient(), timeout]);
      return true;
    } finally {
      clearTimeout(timer);
    }
  } catch {
    return false;
  }
}
