import { lookup as lookupHost, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from '../private-addresses.js';
import type { SourceFile } from './source.js';

/**
 * The bytes of an image a post names: from the export itself when its address's path is one of
 * the export's files (Ghost's zip), else fetched over http(s) from the old site or wherever it
 * lives. A fetch never reaches a private, loopback, link-local, CGNAT, multicast or IPv6 unique
 * local address (the host is resolved first and the connection made to the address checked, so
 * a name that resolves twice cannot swap in another), nor does any redirect; it gives up after
 * FETCH_TIMEOUT_MS, MAX_REDIRECTS redirects or `maxBytes`.
 */

export const FETCH_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 3;

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
    if (file.size > options.maxBytes) throw tooLarge(options.maxBytes);
    return file.read();
  }
  if (options.fetchRemote === false) throw new ImageFetchError('remote images are not fetched');
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

const tooLarge = (maxBytes: number) =>
  new ImageFetchError(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB (UPLOAD_MAX_MB)`);

async function fetchImage(start: URL, options: ImageSourceOptions): Promise<Buffer> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS);
  let url = start;
  for (let redirects = 0; ; redirects += 1) {
    const answer = await request(url, options, deadline);
    if (answer.location === null) return answer.body;
    if (redirects === MAX_REDIRECTS) {
      throw new ImageFetchError(`more than ${MAX_REDIRECTS} redirects`);
    }
    try {
      url = new URL(answer.location, url);
    } catch {
      throw new ImageFetchError(`redirected to a wrong address: ${answer.location.slice(0, 100)}`);
    }
  }
}

/** One request: its body, or where it redirects to. */
function request(
  url: URL,
  options: ImageSourceOptions,
  deadline: AbortSignal,
): Promise<{ body: Buffer; location: null } | { body: null; location: string }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new ImageFetchError(`not an http(s) address (${url.protocol})`));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address written as an IP is connected to without a lookup: checked here.
  if (isIP(host) !== 0 && !options.allowPrivateAddresses) {
    const refusal = refusalOf(host);
    if (refusal) return Promise.reject(new ImageFetchError(refusal));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) =>
      reject(
        error instanceof ImageFetchError
          ? error
          : new ImageFetchError(deadline.aborted ? 'no answer within 10 s' : describe(error)),
      );
    const outgoing = client.get(
      url,
      {
        signal: deadline,
        lookup: options.allowPrivateAddresses ? undefined : checkedLookup,
        headers: { accept: 'image/*', 'user-agent': 'Cohort importer' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          resolve({ body: null, location: response.headers.location });
          return;
        }
        if (status !== 200) {
          response.resume();
          reject(new ImageFetchError(`the server answered ${status}`));
          return;
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          response.destroy();
          reject(tooLarge(options.maxBytes));
          return;
        }
        const chunks: Buffer[] = [];
        let length = 0;
        response.on('data', (chunk: Buffer) => {
          length += chunk.length;
          if (length > options.maxBytes) {
            response.destroy();
            reject(tooLarge(options.maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ body: Buffer.concat(chunks), location: null }));
        response.on('error', fail);
      },
    );
    outgoing.on('error', fail);
  });
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name is not known';
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (code === 'ECONNRESET') return 'the connection was cut';
  return error instanceof Error ? error.message : String(error);
}

/** Why an IP address is refused, or null when it is a public one. */
export function refusalOf(address: string): string | null {
  if (isIP(address) === 0) return `${address} is not an IP address`;
  return isPrivateAddress(address)
    ? `${address} is a private, loopback or otherwise local address: not fetched`
    : null;
}

/** dns.lookup, refusing a host any of whose addresses is a private one. */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  lookupHost(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    const refused = addresses.map((found) => refusalOf(found.address)).find(Boolean);
    const first = addresses[0];
    if (refused || !first) {
      callback(new ImageFetchError(refused ?? `${hostname} has no address`), '', 0);
      return;
    }
    if (options.all) {
      (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    } else {
      callback(null, first.address, first.family);
    }
  });
};
