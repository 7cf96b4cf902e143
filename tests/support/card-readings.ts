import type { CardImage, CardReading } from '../../contract/embeds.js';
import { runImport, type ImportDeps } from '../../server/src/imports/run-import.js';
import type { Site } from './with-site.js';

/** A video the tests' posts embed (Ghost's tour of its editor). */
export const TOUR_VIDEO = 'https://www.youtube.com/watch?v=hmH3XMlms8E';

/** A thumbnail's upload address, for readings that are not stored with the file. */
export const TOUR_THUMBNAIL: CardImage = {
  src: '/uploads/0123456789abcdefghij-480x360.webp',
  width: 480,
  height: 360,
};

/**
 * What the card reader keeps of the tour video once it has read YouTube's oEmbed answer (the
 * tests reach no host on the internet): its title, author, player and thumbnail.
 */
export function tourVideoReading(thumbnail: CardImage | null = TOUR_THUMBNAIL): CardReading {
  return {
    url: TOUR_VIDEO,
    state: 'read',
    card: {
      kind: 'embed',
      provider: 'youtube',
      player: 'https://www.youtube-nocookie.com/embed/hmH3XMlms8E?autoplay=1',
      title: 'A tour of the editor',
      author: 'Ghost',
      thumbnail,
      aspect: 16 / 9,
    },
  };
}

/**
 * An export imported into a test site, as the desk's Import page runs it, with the old site's
 * files on this machine's loopback address allowed to be fetched.
 */
export const importIntoSite = (
  site: Site,
  file: string,
  { section = 'Wealth', ...options }: Partial<ImportDeps> & { section?: string } = {},
) =>
  runImport(
    { source: 'ghost', path: file, section },
    {
      pool: site.database.pool,
      imageStore: site.app.imageStore,
      config: site.config,
      stripe: null,
      mail: site.app.mailer,
      schedule: site.app.postSchedule,
      allowPrivateAddresses: true,
      ...options,
    },
  );
