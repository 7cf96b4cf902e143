import { OutboundError, readOutbound } from '../embeds/outbound.js';
import type { SourceFile } from './source.js';

/**
 * The bytes of an image (or an audio or video file: post-media.ts) a post names: from the export
 * itself when its address's path is one of the export's files (Ghost's zip), else fetched over
 * http(s) from the old site or wherever it lives, through the site's private-address guard
 * (embeds/outbound.ts): never from a private, loopback or otherwise local address, nor through a
 * redirect to one, and not past its time, its redirects or `maxBytes`.
 */

/** Why an image was not taken: said in the report's `images.notFetched`. */
export class ImageFetchError extends Error {
  override name = 'ImageFetchError';
}

export interface ImageSourceOptions {
  /** The export's files, by the site path they were served at. */
  files: Map<string, SourceFile>;
  /** The old site's address, for images named by a path alone. */
  siteUrl?: string;
  /** The largest image taken (UPLOAD_MAX_MB). */
  maxBytes: number;
  /** The setting that sets maxBytes, named when a file is refused for its size: UPLOAD_MAX_MB. */
  limitName?: string;
  /** What is asked for (the Accept header): images, unless an audio or video file is. */
  accept?: string;
  /**
   * Lets fetches reach private and loopback addresses: for tests, whose image server listens on
   * 127.0.0.1. Never set from the environment or the command line.
   */
  allowPrivateAddresses?: boolean;
  timeoutMs?: number;
  /**
   * False: only the export's own files are taken, and an image elsewhere is reported, not
   * fetched (tests that read real exports and must not reach the network).
   */
  fetchRemote?: boolean;
}

/** Ghost writes its own address as this placeholder in exports (`__GHOST_URL__/content/…`). */
const GHOST_URL = '__GHOST_URL__';

/** The bytes of the image at `url`, or an ImageFetchError saying why not. */
export async function readImage(url: string, options: ImageSourceOptions): Promise<Buffer> {
  const address = url.trim().replace(/^__GHOST_URL__(?=\/)/, '');
  const file = options.files.get(pathOf(address));
  if (file) {
    if (file.size > options.maxBytes) throw tooLarge(options);
    return file.read();
  }
  if (options.fetchRemote === false) throw new ImageFetchError('remote files are not fetched');
  let absolute: URL;
  try {
    absolute = new URL(address, options.siteUrl);
  } catch {
    throw new ImageFetchError(
      address.startsWith('/') || url.startsWith(GHOST_URL)
        ? 'a path on the old site, which the export does not name, and not in the export'
        : 'not a web address',
    );
  }
  return fetchImage(absolute, options);
}

/** An address's path, decoded, as the export's files are keyed. */
function pathOf(address: string): string {
  try {
    return decodeURIComponent(new URL(address, 'http://export.invalid').pathname);
  } catch {
    return address;
  }
}

const tooLarge = ({ maxBytes, limitName = 'UPLOAD_MAX_MB' }: ImageSourceOptions) =>
  new ImageFetchError(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB (${limitName})`);

/** One fetch through the site's private-address guard (embeds/outbound.ts). */
async function fetchImage(url: URL, options: ImageSourceOptions): Promise<Buffer> {
  try {
    const answer = await readOutbound(
      url,
      {
        accept: options.accept ?? 'image/*',
        maxBytes: options.maxBytes,
        overLimit: 'refuse',
        limitName: options.limitName ?? 'UPLOAD_MAX_MB',
        ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      },
      { allowPrivate: options.allowPrivateAddresses ?? false },
    );
    return answer.body;
  } catch (error) {
    throw error instanceof OutboundError ? new ImageFetchError(error.message) : error;
  }
}
