import { describe, expect, it } from 'vitest';
import { refusalOf } from './embeds/outbound.js';
import { isPrivateAddress } from './private-addresses.js';
import { resolveTarget } from './webhooks/safe-target.js';

// What an outsider's address may not lead to, asked by both callers (an import's images,
// fetch-image.ts; an integration's webhooks, safe-target.ts): IPv6 forms that carry an IPv4
// address are judged in every spelling, dotted or hex, compressed or written out.

describe('private addresses', () => {
  it('refuses IPv4’s private ranges and lets public addresses through', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '100.64.0.1', '169.254.169.254', '0.0.0.0']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '2a00:1450::1']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
    expect(isPrivateAddress('example.com')).toBe(true);
  });

  // IPv6 forms that carry an IPv4 address, each refused in every spelling of what it refuses.
  const forms: { form: string; refused: string[]; allowed: string[] }[] = [
    {
      form: 'an IPv4-mapped address (::ffff:a.b.c.d) whose IPv4 address is private',
      refused: [
        '::ffff:127.0.0.1',
        '::ffff:7f00:1',
        '0:0:0:0:0:ffff:7f00:1',
        '0000:0000:0000:0000:0000:FFFF:7F00:0001',
        '::ffff:10.0.0.1',
        '::ffff:a9fe:a9fe',
      ],
      allowed: ['::ffff:93.184.216.34', '::ffff:5db8:d822'],
    },
    {
      form: 'IPv4-compatible addresses (::/96), whatever they carry',
      refused: [
        '::',
        '::1',
        '::127.0.0.1',
        '::7f00:1',
        '0:0:0:0:0:0:7f00:1',
        '::a9fe:a9fe',
        '::93.184.216.34',
        '::5db8:d822',
      ],
      allowed: [],
    },
    {
      form: 'IPv4-translated addresses (::ffff:0:a.b.c.d, ::ffff:0:0:0/96)',
      refused: [
        '::ffff:0:127.0.0.1',
        '::ffff:0:7f00:1',
        '0:0:0:0:ffff:0:7f00:1',
        '0:0:0:0:ffff:0:a00:1',
        '::ffff:0:93.184.216.34',
      ],
      allowed: [],
    },
    {
      form: 'NAT64’s prefixes, the well-known one and the local-use one (64:ff9b:1::/48)',
      refused: [
        '64:ff9b::127.0.0.1',
        '64:ff9b::7f00:1',
        '64:ff9b::5db8:d822',
        '64:ff9b:1::7f00:1',
        '64:ff9b:1::127.0.0.1',
        '64:ff9b:1:0:0:0:7f00:1',
        '0064:ff9b:0001:ffff:ffff:ffff:ffff:ffff',
        '64:ff9b:1:a9fe::a9fe:a9fe',
      ],
      allowed: ['64:ff9b:2::1'],
    },
    {
      form: 'Teredo (2001::/32) and 6to4 (2002::/16), whichever IPv4 address they carry',
      refused: [
        // Server 65.54.227.120 (public), client 192.168.1.1 obfuscated (3f57:fefe).
        '2001:0:4136:e378:8000:63bf:3f57:fefe',
        // Server 127.0.0.1, client 93.184.216.34 obfuscated.
        '2001:0:7f00:1::a247:27dd',
        '2001:0000:7f00:0001:0000:0000:a247:27dd',
        '2001::1',
        '2002:7f00:1::',
        '2002:c0a8:101::1',
        '2002:5db8:d822::1',
      ],
      // Next to Teredo, outside it: ordinary global addresses.
      allowed: ['2001:1::1', '2001:4860:4860::8888'],
    },
  ];

  it.each(forms)('refuses $form', ({ refused, allowed }) => {
    for (const address of refused) expect(isPrivateAddress(address), address).toBe(true);
    for (const address of allowed) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('is what both an import’s image fetch and a webhook’s target ask', async () => {
    for (const address of ['::7f00:1', '::ffff:0:7f00:1', '64:ff9b:1::7f00:1', '2001::7f00:1']) {
      expect(refusalOf(address), address).toMatch(/private, loopback/);
      await expect(
        resolveTarget(new URL(`http://[${address}]/hook`), false),
        address,
      ).rejects.toMatchObject({ code: 'private_address' });
    }
    expect(refusalOf('2606:4700::1111')).toBeNull();
  });
});
