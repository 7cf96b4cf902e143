import { readFileSync } from 'node:fs';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../server/src/config.js';
import { MEMBERSHIP_EVENT_TYPES } from '../../server/src/stripe/event-facts.js';

// What the operator copies into Stripe's Dashboard from the README must be what the code needs:
// the events the webhook handles and the API version of the Stripe library it runs.

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const stripeSection = readme.slice(readme.indexOf('### Stripe'), readme.indexOf('### TLS'));

describe('the README’s Stripe setup', () => {
  it('lists every webhook event Cohort handles, disputes included', () => {
    for (const type of MEMBERSHIP_EVENT_TYPES) expect(stripeSection).toContain(`\`${type}\``);
  });

  it('names the API version of the Stripe library for the endpoint', () => {
    expect(stripeSection).toContain(`API version \`${Stripe.API_VERSION}\``);
  });

  it('ends the restore steps with the reconcile command', () => {
    const restore = readme.slice(readme.indexOf('### Backups and restore'));
    expect(restore.slice(0, restore.indexOf('```\n\n'))).toMatch(
      /npm run stripe:reconcile -- --since \S+\n$/,
    );
  });
});

describe('the configuration an operator reads', () => {
  const envExample = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');

  it('documents every variable the server reads, in the README and in .env.example', () => {
    const table = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('## Architecture'),
    );
    for (const name of Object.keys(envSchema.shape)) {
      expect(table, `README: ${name}`).toContain(`\`${name}\``);
      expect(envExample, `.env.example: ${name}`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    }
  });
});
