import { embedProviderOf } from '../../../contract/embeds.js';
import { readCardReadings, saveCardReading } from './card-store.js';
import { OutboundError } from './outbound.js';
import { readCard, type CardSources } from './read-card.js';

/**
 * Reads the cards a post names when it is saved or imported, before its write's transaction
 * (never holding one over the network): each address not read before is read once and kept
 * (card-store.ts), a few at a time, within the time the caller gives. The same address in two
 * posts is read once; reading it again is a desk action, not a save.
 */

/** Addresses read at once. */
const READS_AT_ONCE = 4;

/** A card the post shows as less than a card, and why: for the writer or the import's report. */
export interface UnreadCard {
  url: string;
  reason: string;
}

export interface CardReader {
  /**
   * Reads each of `urls` not read before; answers those that could not be read, now or before.
   * With `budgetMs`, reads still going when it is spent are stopped and kept for the next save.
   */
  read(urls: readonly string[], options?: { budgetMs?: number }): Promise<UnreadCard[]>;
}

/** How long a desk save waits for its cards, at most. */
export const SAVE_BUDGET_MS = 15_000;

export function createCardReader(sources: CardSources): CardReader {
  return {
    async read(urls, options = {}) {
      const wanted = [...new Set(urls)];
      if (wanted.length === 0) return [];
      const known = await readCardReadings(sources.pool, wanted);
      const unread: UnreadCard[] = [];
      for (const reading of known.values()) {
        if (reading.state === 'unreachable')
          unread.push({ url: reading.url, reason: reading.reason });
      }
      const toRead = wanted.filter((url) => !known.has(url));
      const signal =
        options.budgetMs === undefined ? undefined : AbortSignal.timeout(options.budgetMs);
      let next = 0;
      const work = async () => {
        for (let index = next++; index < toRead.length; index = next++) {
          const url = toRead[index] as string;
          try {
            const reading = await readCard(url, sources, signal);
            await saveCardReading(sources.pool, reading);
            if (reading.state === 'unreachable') unread.push({ url, reason: reading.reason });
          } catch (error) {
            if (!(error instanceof OutboundError && error.stopped)) throw error;
            unread.push({ url, reason: 'not read in time: it is read again at the next save' });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, toRead.length) }, work));
      return wanted.flatMap((url) => unread.filter((each) => each.url === url));
    },
  };
}

/** What a card that could not be read becomes, in words: `card <url>: <reason>, kept as a link`. */
export function describeUnreadCard({ url, reason }: UnreadCard): string {
  const shown = embedProviderOf(url) ? 'shown without its title and thumbnail' : 'kept as a link';
  return `card ${url}: ${reason}, ${shown}`;
}
