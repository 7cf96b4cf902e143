import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The client's and the server's import directions are enforced by `npm run lint`
// (eslint.config.js): these wrong imports must each fail it, and the right ones must pass. The
// whole graph (no circle, every server folder in a layer) is import-graph.test.ts's.

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (
    (result?.messages ?? [])
      // The zod rule is typescript-eslint's own (eslint.config.js says why).
      .filter((message) => message.ruleId?.endsWith('no-restricted-imports'))
      .map((message) => message.message)
  );
}

describe('import boundaries', () => {
  it.each([
    [
      'a component importing a feature',
      'client/src/components/wrong.tsx',
      "import { PaywallModal } from '../features/paywall/paywall-modal';",
    ],
    [
      'shared code importing the app',
      'client/src/lib/wrong.ts',
      "import { paths } from '../app/router';",
    ],
    [
      'a feature importing another feature',
      'client/src/features/account/wrong.tsx',
      "import { CheckoutReturn } from '../payments/checkout-return';",
    ],
    [
      'a feature importing the app',
      'client/src/features/paywall/wrong.tsx',
      "import { Layout } from '../../app/layout/layout';",
    ],
    [
      'the client importing the server',
      'client/src/lib/wrong.ts',
      "import { buildApp } from '../../../server/src/app';",
    ],
    [
      'the contract importing the server',
      'contract/wrong.ts',
      "import { buildApp } from '../server/src/app.js';",
    ],
    [
      'the server importing the client',
      'server/src/wrong.ts',
      "import { paths } from '../../client/src/config/paths.js';",
    ],
    [
      'the memberships module importing the desk',
      'server/src/memberships/wrong.ts',
      "import { listMembers } from '../desk/members.js';",
    ],
    [
      'the memberships module importing the webhooks above it',
      'server/src/memberships/wrong.ts',
      "import { createWebhook } from '../webhooks/webhook-store.js';",
    ],
    [
      'the outbox importing the memberships that write to it',
      'server/src/outbox/wrong.ts',
      "import { readMembership } from '../memberships/memberships.js';",
    ],
    [
      'content importing the comments beside it',
      'server/src/content/wrong.ts',
      "import { readComments } from '../comments/comments.js';",
    ],
    [
      'the Ghost Content API importing the Admin API above it',
      'server/src/ghost-api/wrong.ts',
      "import { browsePosts } from '../ghost-admin/admin-browse.js';",
    ],
    [
      'gifts importing the Stripe SDK',
      'server/src/gifts/wrong.ts',
      "import type Stripe from 'stripe';",
    ],
    [
      'the memberships module calling Stripe',
      'server/src/memberships/wrong.ts',
      "import { callStripe } from '../stripe/call-stripe.js';",
    ],
    [
      'the memberships module importing the Stripe SDK',
      'server/src/memberships/wrong.ts',
      "import type Stripe from 'stripe';",
    ],
    [
      'the memberships module importing the gifts that call it',
      'server/src/memberships/wrong.ts',
      "import { claimGift } from '../gifts/gift-ledger.js';",
    ],
    [
      'the memberships module importing accounts',
      'server/src/memberships/wrong.ts',
      "import { signIn } from '../accounts/accounts.js';",
    ],
    [
      'a domain module importing a route',
      'server/src/gifts/wrong.ts',
      "import deskGiftRoutes from '../routes/desk/gifts.js';",
    ],
    [
      'a domain module importing a plugin, for a type only',
      'server/src/accounts/wrong.ts',
      "import type { Payments } from '../plugins/app/payments.js';",
    ],
    [
      'a domain module importing an HTTP helper',
      'server/src/accounts/wrong.ts',
      "import { sitePath } from '../http/site-path.js';",
    ],
    [
      'a domain module importing a command',
      'server/src/imports/wrong.ts',
      "import { runImportCommand } from '../cli/import.js';",
    ],
    [
      'a domain module throwing HttpError',
      'server/src/seats/wrong.ts',
      "import { HttpError } from '../http/errors.js';",
    ],
    ['the server describing a schema with zod', 'server/src/wrong.ts', "import { z } from 'zod';"],
    ['the client describing a schema with zod', 'client/src/lib/wrong.ts', "import 'zod/mini';"],
    [
      'the error handler importing Stripe code',
      'server/src/plugins/app/error-handler.ts',
      "import { logStripeFailure } from '../../stripe/call-stripe.js';",
    ],
  ])('fails lint for %s', async (_name, filePath, code) => {
    expect(await restrictedImports(filePath, `${code}\nexport {};\n`)).toHaveLength(1);
  });

  it.each([
    [
      'the app importing a feature',
      'client/src/app/right.tsx',
      "import '../features/paywall/paywall-modal';",
    ],
    [
      'a feature importing shared code',
      'client/src/features/account/right.tsx',
      "import '../../lib/session/session-context';",
    ],
    ['a component importing lib', 'client/src/components/right.tsx', "import '../lib/api-client';"],
    [
      'the memberships module importing the database',
      'server/src/memberships/right.ts',
      "import '../db/transaction.js';",
    ],
    ['gifts calling the ledger', 'server/src/gifts/right.ts', "import '../memberships/ledger.js';"],
    [
      'the memberships module writing a member event to the outbox',
      'server/src/memberships/right.ts',
      "import '../outbox/webhook-events.js';",
    ],
    [
      // apply-payment-facts.ts sends each fact to memberships, gifts or seats: it sits above them.
      'stripe applying a payment to seats',
      'server/src/stripe/right.ts',
      "import '../seats/seat-ledger.js';",
    ],
    [
      'the Ghost Admin API importing the Content API below it',
      'server/src/ghost-admin/right.ts',
      "import '../ghost-api/serializers.js';",
    ],
    [
      'a domain module throwing DomainError',
      'server/src/seats/right.ts',
      "import '../domain-error.js';",
    ],
    [
      'a route calling a domain module',
      'server/src/routes/right.ts',
      "import '../stripe/call-stripe.js';",
    ],
    [
      // Tests drive the whole app from outside, whatever folder they sit in.
      'a memberships test paying through Stripe',
      'server/src/memberships/right.test.ts',
      "import '../stripe/cohort-sales.js';",
    ],
  ])('passes lint for %s', async (_name, filePath, code) => {
    expect(await restrictedImports(filePath, `${code}\nexport {};\n`)).toEqual([]);
  });
});
