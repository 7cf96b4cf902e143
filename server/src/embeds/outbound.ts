import { lookup as lookupHost, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from '../private-addresses.js';

/**
 * The site's requests to addresses an outsider chose (a card's page and its provider, an
 * import's images): the one private-address guard. The host is resolved first and the connection
 * made to the address checked, so a name that resolves twice cannot swap in another; every
 * redirect is checked the same way. A private, loopback, link-local, shared, multicast or reserved
 * address (private-addresses.ts) is never reached, unless the operator's test switch says so
 * (OUTBOUND_ALLOW_PRIVATE=on, refused in production). One deadline covers the request and its
 * redirects; an answer past its size limit is cut off or refused.
 */

export const OUTBOUND_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 3;

/** Why an outbound request gave nothing: said to the writer, kept with an unreachable card. */
export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(
    message: string,
    /** The caller's own signal stopped it (its time ran out), not the server. */
    readonly stopped = false,
  ) {
    super(message);
  }
}

/**
 * Tests only, never from the environment: where requests go instead of the network. A host
 * listed goes to its origin (a server on 127.0.0.1 standing in for the provider), with the
 * address's path, query and Host header; a host name not listed is not reached at all, so a test
 * never touches the network.
 */
export interface OutboundRouting {
  hosts: Readonly<Record<string, string>>;
}

/** How the site reaches outside: the same for every outbound request it makes. */
export interface OutboundOptions {
  /** OUTBOUND_ALLOW_PRIVATE=on: private and loopback addresses may be reached (one-machine tests). */
  allowPrivate: boolean;
  routing?: OutboundRouting;
}

export interface OutboundRequest {
  /** The Accept header: what the caller can read. */
  accept: string;
  maxBytes: number;
  /**
   * Past maxBytes: `cut` keeps the first maxBytes (a page's head is at its start), `refuse`
   * fails (an image or a JSON document cut short is no use).
   */
  overLimit: 'cut' | 'refuse';
  /** The setting that sets maxBytes, named when an answer is refused for its size. */
  limitName?: string;
  timeoutMs?: number;
  /** The caller's own limit (a save's time for reading cards): stops the request when it fires. */
  signal?: AbortSignal;
}

export interface OutboundAnswer {
  /** Where the answer came from, after redirects. */
  url: URL;
  body: Buffer;
  /** The Content-Type header, lower case, without its parameters; '' when none. */
  type: string;
  /** The Content-Type's charset parameter, lower case, or null. */
  charset: string | null;
  /** True when the body was longer than maxBytes and only its start was kept. */
  cut: boolean;
}

/** GETs `address`, following up to MAX_REDIRECTS redirects, each through the guard. */
export async function readOutbound(
  address: string | URL,
  request: OutboundRequest,
  options: OutboundOptions,
): Promise<OutboundAnswer> {
  const timeoutMs = request.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const deadline = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
  const stop = () =>
    timeout.aborted
      ? new OutboundError(`no answer within ${Math.round(timeoutMs / 1000)} s`)
      : new OutboundError('stopped before an answer', true);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new OutboundError('not a web address');
  }
  for (let redirects = 0; ; redirects += 1) {
    if (deadline.aborted) throw stop();
    const answer = await requestOnce(url, request, options, deadline, stop);
    if (!('location' in answer)) return answer;
    if (redirects === MAX_REDIRECTS)
      throw new OutboundError(`more than ${MAX_REDIRECTS} redirects`);
    try {
      url = new URL(answer.location, url);
    } catch {
      throw new OutboundError(`redirected to a wrong address: ${answer.location.slice(0, 100)}`);
    }
  }
}

/** Why an IP address is refused, or null when it is a public one. */
export function refusalOf(address: string): string | null {
  if (isIP(address) === 0) return `${address} is not an IP address`;
  return isPrivateAddress(address)
    ? `${address} is a private, loopback or otherwise local address: not fetched`
    : null;
}

/** Where one request connects: the address's own host, or a test's stand-in for it. */
interface Target {
  url: URL;
  /** The Host header, when the connection goes elsewhere than the address says. */
  host?: string;
  /** Whether the guard checks the connection: not for a test's stand-in. */
  guarded: boolean;
}

function targetOf(url: URL, options: OutboundOptions): Target {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError(`not an http(s) address (${url.protocol})`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // An address written as an IP is connected to without a lookup: checked here.
  if (isIP(host) !== 0 && !options.allowPrivate) {
    const refusal = refusalOf(host);
    if (refusal) throw new OutboundError(refusal);
  }
  const routing = options.routing;
  if (!routing || isIP(host) !== 0) return { url, guarded: !options.allowPrivate };
  const origin = routing.hosts[host];
  if (origin === undefined) throw new OutboundError(`${host} is not reached in tests`);
  const routed = new URL(`${url.pathname}${url.search}`, origin);
  return { url: routed, host: url.host, guarded: false };
}

type Hop = OutboundAnswer | { location: string };

function requestOnce(
  url: URL,
  request: OutboundRequest,
  options: OutboundOptions,
  deadline: AbortSignal,
  stop: () => OutboundError,
): Promise<Hop> {
  let target: Target;
  try {
    target = targetOf(url, options);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  const client = target.url.protocol === 'https:' ? https : http;
  const tooLarge = () =>
    new OutboundError(
      `larger than ${formatMegabytes(request.maxBytes)}${request.limitName ? ` (${request.limitName})` : ''}`,
    );
  return new Promise<Hop>((resolve, reject) => {
    const fail = (error: unknown) =>
      reject(error instanceof OutboundError ? error : deadline.aborted ? stop() : describe(error));
    const outgoing = client.get(
      target.url,
      {
        signal: deadline,
        lookup: target.guarded ? checkedLookup : undefined,
        headers: {
          accept: request.accept,
          'user-agent': 'Mozilla/5.0 (compatible; Cohort)',
          ...(target.host && { host: target.host }),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          resolve({ location: response.headers.location });
          return;
        }
        if (status !== 200) {
          response.resume();
          reject(new OutboundError(`the server answered ${status}`));
          return;
        }
        const [type = '', ...parameters] = (response.headers['content-type'] ?? '').split(';');
        const charset =
          parameters
            .map((parameter) => /^\s*charset\s*=\s*"?([^";\s]+)/i.exec(parameter)?.[1])
            .find(Boolean)
            ?.toLowerCase() ?? null;
        const answer = (body: Buffer, cut: boolean): OutboundAnswer => ({
          url,
          body,
          type: type.trim().toLowerCase(),
          charset,
          cut,
        });
        const declared = Number(response.headers['content-length']);
        if (request.overLimit === 'refuse' && declared > request.maxBytes) {
          response.destroy();
          reject(tooLarge());
          return;
        }
        const chunks: Buffer[] = [];
        let length = 0;
        response.on('data', (chunk: Buffer) => {
          const room = request.maxBytes - length;
          length += chunk.length;
          if (length <= request.maxBytes) {
            chunks.push(chunk);
            return;
          }
          // Past the limit: nothing more is read, whatever the server still sends.
          response.destroy();
          if (request.overLimit === 'refuse') reject(tooLarge());
          else resolve(answer(Buffer.concat([...chunks, chunk.subarray(0, room)]), true));
        });
        response.on('end', () => resolve(answer(Buffer.concat(chunks), false)));
        response.on('error', fail);
      },
    );
    outgoing.on('error', fail);
  });
}

const formatMegabytes = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${Math.round(bytes / 1024 / 1024)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

function describe(error: unknown): OutboundError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new OutboundError('the host name is not known');
  }
  if (code === 'ECONNREFUSED') return new OutboundError('the connection was refused');
  if (code === 'ECONNRESET') return new OutboundError('the connection was cut');
  if (typeof code === 'string' && /CERT|SSL|TLS/.test(code)) {
    return new OutboundError('its certificate is not valid');
  }
  return new OutboundError(error instanceof Error ? error.message : String(error));
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
      callback(new OutboundError(refused ?? `${hostname} has no address`), '', 0);
      return;
    }
    if (options.all) {
      (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    } else {
      callback(null, first.address, first.family);
    }
  });
};
