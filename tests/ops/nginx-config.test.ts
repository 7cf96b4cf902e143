import { describe, expect, it } from 'vitest';
import { brotliModule, findNginx, testNginxConfig } from '#test/nginx';

// The shipped nginx.conf loads on any nginx: the official image has no brotli module, Debian's
// can have it (libnginx-mod-http-brotli-static).

describe.skipIf(!findNginx())('nginx.conf on nginx with and without the brotli module', () => {
  it('loads on an nginx without the brotli module (gzip_static alone)', async () => {
    const result = await testNginxConfig({ brotli: false });
    expect(result.output).toMatch(/test is successful/);
    expect(result.ok).toBe(true);
  });

  it.skipIf(!brotliModule)('loads with the module and brotli_static switched on', async () => {
    const result = await testNginxConfig({ brotli: true });
    expect(result.output).toMatch(/test is successful/);
    expect(result.ok).toBe(true);
  });
});
