import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../server/src/config.js';
import { MEMBERSHIP_EVENT_TYPES } from '../../server/src/stripe/event-facts.js';

// What the operator copies into Stripe's Dashboard from the docs must be what the code needs:
// the events the webhook handles and the API version of the Stripe library it runs. The README is
// the start page; the reference lives in docs/, one file per reader.

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const docFiles = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text of one `## heading` section of a Markdown file, up to the next heading of its level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `no section "${heading}"`).toBeGreaterThanOrEqual(0);
  const level = heading.split(' ')[0];
  const end = text.indexOf(`\n${level} `, start + heading.length + 2);
  return text.slice(start, end === -1 ? undefined : end);
}

describe('the Stripe set-up in docs/payments.md', () => {
  const stripeSection = section(read('docs/payments.md'), '## Stripe set-up');

  it('lists every webhook event Cohort handles, disputes included', () => {
    for (const type of MEMBERSHIP_EVENT_TYPES) expect(stripeSection).toContain(`\`${type}\``);
  });

  it('names the API version of the Stripe library for the endpoint', () => {
    expect(stripeSection).toContain(`API version \`${Stripe.API_VERSION}\``);
  });

  it('ends the restore steps with the reconcile command', () => {
    const restore = section(read('docs/operating.md'), '## Backups and restore');
    expect(restore.slice(0, restore.indexOf('```\n\n'))).toMatch(
      /npm run stripe:reconcile -- --since \S+\n$/,
    );
  });
});

describe('the configuration an operator reads', () => {
  const envExample = read('.env.example');

  it('documents every variable the server reads, in docs/operating.md and in .env.example', () => {
    const table = section(read('docs/operating.md'), '## Configuration');
    for (const name of Object.keys(envSchema.properties)) {
      expect(table, `docs/operating.md: ${name}`).toContain(`\`${name}\``);
      expect(envExample, `.env.example: ${name}`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    }
  });
});

describe('the README and docs/', () => {
  it('keeps the README a start page: the two commands first, then where to go next', () => {
    const readme = read('README.md');
    expect(readme).toMatch(/^# Cohort\n\n```sh\nnpm install && npm start .*\nnpm test .*\n```\n/);
    expect(readme.split('\n').length).toBeLessThan(60);
    for (const doc of docFiles.filter((f) => f.startsWith('docs/'))) {
      expect(readme, `README links ${doc}`).toContain(`](${doc})`);
    }
  });

  it('names only npm scripts that exist', () => {
    const scripts = Object.keys(JSON.parse(read('package.json')).scripts as object);
    for (const file of docFiles) {
      for (const [, name] of read(file).matchAll(/npm run ([\w:-]+)/g)) {
        expect(scripts, `${file}: npm run ${name}`).toContain(name);
      }
    }
  });

  it('links only files and headings that exist', () => {
    const slug = (heading: string) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
    const anchors = (file: string) =>
      [...read(file).matchAll(/^#+ (.+)$/gm)].map((match) => slug(match[1] ?? ''));
    for (const file of docFiles) {
      const text = read(file).replace(/```[\s\S]*?```/g, '');
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const linked = path ? join(dirname(file), path) : file;
        expect(existsSync(join(root, linked)), `${file}: ${target}`).toBe(true);
        if (anchor) expect(anchors(linked), `${file}: ${target}`).toContain(anchor);
      }
    }
  });
});
