import { BlockList, isIP } from 'node:net';

/**
 * The addresses nothing the site fetches or sends may reach on an outsider's say-so (an import's
 * image, an integration's webhook): private networks, this machine, link-local, shared,
 * documentation, multicast and reserved ranges, and IPv6 forms that lead back to IPv4 ones.
 * An IPv4-mapped address (::ffff:a.b.c.d, in any spelling) is judged by its IPv4 address; the
 * other forms that carry one (IPv4-compatible, IPv4-translated, NAT64's prefixes, 6to4, Teredo)
 * are refused whole, whatever they carry: no receiver or image host needs them, and Teredo's
 * client address is obfuscated, so refusing is simpler and safer than decoding.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // IPv4-compatible (::a.b.c.d), with the unspecified address and loopback in it.
  ['::', 96],
  // IPv4-translated, SIIT (::ffff:0:a.b.c.d).
  ['::ffff:0:0:0', 96],
  // NAT64: the well-known prefix, then the local-use one.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // Teredo, whose server and (obfuscated) client addresses are IPv4 ones.
  ['2001::', 32],
  ['2001:db8::', 32],
  // 6to4 (2002:a.b.c.d::/48).
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is in one of those ranges; anything not an IP address counts as one. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  // BlockList judges an IPv4-mapped address (::ffff:127.0.0.1, ::ffff:7f00:1) by the IPv4 rules.
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
