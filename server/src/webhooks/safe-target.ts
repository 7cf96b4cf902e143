import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { DomainError } from '../domain-error.js';
import { isPrivateAddress } from '../private-addresses.js';

/**
 * Where a webhook may be sent: an http(s) address whose host resolves only to public addresses.
 * Private, loopback, link-local, shared, multicast and reserved ranges are refused (an outside
 * integration must not reach the site's own network), unless the operator allows them
 * (`WEBHOOKS_ALLOW_PRIVATE=on`, docs/operating.md). The address checked is the one connected
 * to: the sender pins its connection to it, so a name that resolves anew cannot slip past.
 */

/** A webhook's address as given: http(s), no credentials in it. 400 otherwise. */
export function readTargetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new DomainError(400, 'invalid_webhook', 'The target URL must be a full http(s) address.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DomainError(400, 'invalid_webhook', 'The target URL must be an http(s) address.');
  }
  if (url.username || url.password) {
    throw new DomainError(400, 'invalid_webhook', 'The target URL must not carry a password.');
  }
  return url;
}

export interface ResolvedTarget {
  url: URL;
  /** The address connected to, checked. */
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the target's host and checks every address it has; answers the first, to connect to.
 * Refuses (400 `private_address`) a host with any address in a private range, unless allowed.
 */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<ResolvedTarget> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => {
        throw new DomainError(400, 'unresolvable_host', `The host ${host} does not resolve.`);
      });
  const first = addresses[0];
  if (!first) throw new DomainError(400, 'unresolvable_host', `The host ${host} has no address.`);
  if (!allowPrivate) {
    const inside = addresses.find(({ address }) => isPrivateAddress(address));
    if (inside) {
      throw new DomainError(
        400,
        'private_address',
        `Webhooks are not sent to private or loopback addresses (${host} is ${inside.address}); ` +
          'the operator can allow them with WEBHOOKS_ALLOW_PRIVATE=on.',
      );
    }
  }
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
