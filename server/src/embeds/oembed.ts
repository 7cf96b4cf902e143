import { createRequire } from 'node:module';
import { cleanLineOrNull } from '../../../contract/text-hygiene.js';

/**
 * oEmbed (oembed.com): where a provider answers for an address, from the oEmbed project's own list
 * of providers (the `oembed-providers` package), and what its JSON answer says.
 */

interface Endpoint {
  schemes: RegExp[];
  url: string;
}

/** A scheme of the list (`https://*.youtube.com/watch*`) as a pattern for a whole address. */
function schemePattern(scheme: string): RegExp {
  const escaped = scheme.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`, 'i');
}

let endpoints: Endpoint[] | null = null;

/** The list's endpoints that name their schemes, read once. */
function listedEndpoints(): Endpoint[] {
  if (endpoints) return endpoints;
  const require = createRequire(import.meta.url);
  const providers: unknown = require('oembed-providers');
  const found: Endpoint[] = [];
  for (const provider of Array.isArray(providers) ? (providers as unknown[]) : []) {
    const listed = (provider as { endpoints?: unknown }).endpoints;
    for (const endpoint of Array.isArray(listed) ? (listed as unknown[]) : []) {
      const { schemes, url } = endpoint as { schemes?: unknown; url?: unknown };
      if (typeof url !== 'string' || !Array.isArray(schemes)) continue;
      const patterns = schemes.filter((scheme) => typeof scheme === 'string').map(schemePattern);
      if (patterns.length > 0) found.push({ schemes: patterns, url });
    }
  }
  endpoints = found;
  return found;
}

/**
 * The forms of an address the list's schemes are written for: https, X's addresses as Twitter's,
 * and a host without `www.` with it (the list has `https://*.youtube.com/watch*` only).
 */
function formsOf(address: string): string[] {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return [];
  }
  url.protocol = 'https:';
  url.hostname = url.hostname.toLowerCase().replace(/^(www\.|mobile\.)?x\.com$/, 'twitter.com');
  const forms = [url.href];
  if (url.hostname.split('.').length === 2) {
    const www = new URL(url);
    www.hostname = `www.${url.hostname}`;
    forms.push(www.href);
  }
  return forms;
}

/**
 * The oEmbed request for an address (the endpoint with `url` and `format=json`), or null when no
 * provider of the list answers for it.
 */
export function oembedRequestOf(address: string): string | null {
  for (const form of formsOf(address)) {
    const endpoint = listedEndpoints().find(({ schemes }) =>
      schemes.some((scheme) => scheme.test(form)),
    );
    if (!endpoint) continue;
    const request = new URL(endpoint.url.replace('{format}', 'json'));
    request.searchParams.set('url', form);
    request.searchParams.set('format', 'json');
    return request.href;
  }
  return null;
}

/** What the site takes of an oEmbed answer. */
export interface OEmbedAnswer {
  title: string | null;
  authorName: string | null;
  thumbnailUrl: string | null;
  thumbnailWidth: number | null;
  thumbnailHeight: number | null;
  width: number | null;
  height: number | null;
  /** The provider's HTML: never put in a page, only read (a Bluesky post's at:// address). */
  html: string | null;
}

/** An oEmbed JSON document's fields, or null when it is not one. */
export function readOEmbedAnswer(json: unknown): OEmbedAnswer | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const answer = json as Record<string, unknown>;
  const text = (key: string) =>
    typeof answer[key] === 'string' ? cleanLineOrNull(answer[key]) : null;
  const size = (key: string) => {
    // Providers write sizes as numbers or as text ("480").
    const value = Number(answer[key]);
    return Number.isFinite(value) && value > 0 && value < 100_000 ? Math.round(value) : null;
  };
  const thumbnail = text('thumbnail_url');
  return {
    title: text('title'),
    authorName: text('author_name'),
    thumbnailUrl: thumbnail && /^https?:\/\//i.test(thumbnail) ? thumbnail : null,
    thumbnailWidth: size('thumbnail_width'),
    thumbnailHeight: size('thumbnail_height'),
    width: size('width'),
    height: size('height'),
    html: typeof answer.html === 'string' ? answer.html : null,
  };
}
