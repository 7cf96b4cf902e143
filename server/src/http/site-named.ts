import type { FastifyInstance } from 'fastify';

/**
 * The site's address and its name, the name read at each use from the publication's settings
 * (contract/site-settings.ts), with `extra` beside them: the options of the routes whose mail
 * names the site, so a mail sent after a rename in the desk says the new name. Read
 * `options.siteName` where the mail is written, never once at registration.
 */
export function siteNamed<T extends object>(
  app: FastifyInstance,
  extra: T,
): T & { siteUrl: string; readonly siteName: string } {
  return Object.defineProperty({ ...extra, siteUrl: app.config.siteUrl }, 'siteName', {
    get: () => app.siteContent.current().settings.title,
    enumerable: true,
  }) as T & { siteUrl: string; readonly siteName: string };
}
