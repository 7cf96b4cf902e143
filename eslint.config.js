import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The client's layers import one way: app (router, routes, layout) → features → components, lib,
 * config. Shared code never reaches up into a feature or the app, and no feature reaches into
 * another (what two features share moves down). The client and the server never import each
 * other, and the contract they share (contract/) imports neither.
 * tests/lint/import-boundaries.test.ts proves each rule fails a wrong import.
 */
const features = readdirSync(new URL('./client/src/features', import.meta.url));
const noServer = { group: ['**/server/**'], message: 'The client cannot import server code.' };
const layer = (group, message) => ({ group, message });
const zodMessage =
  'TypeBox is the schema language of the contract and the server: describe it with typebox (its words through contract/schema-problems.ts), not zod.';

/**
 * The server's layers (docs/decisions/0009-services-and-sql.md), bottom first. A folder of
 * server/src imports only folders of the layers below its own: none beside it, none above it.
 * Every folder is in one layer or among the edges; tests/lint/import-graph.test.ts reads this
 * table too, fails on a folder in neither, on an import that runs back up and on any circle.
 */
export const serverLayers = [
  // Prisma's client, as `prisma generate` writes it.
  ['generated'],
  // Storage and plumbing, no rule of the site's: the database, mail, stored images, the outbox
  // (events written in a change's transaction for webhooks), the XML of feeds and crawler files.
  ['db', 'mail', 'uploads', 'outbox', 'site-files'],
  // What a card's address says, read through the one private-address guard for outbound requests
  // (embeds/outbound.ts), its images stored as uploads.
  ['embeds'],
  // The job queue; the ledger (facts in, entitlements out), which the modules above call.
  ['jobs', 'memberships'],
  // Who someone is: a user with their membership; a staff member's role, and the audit log.
  ['users', 'staff'],
  ['sessions', 'content', 'comments', 'gifts', 'newsletter', 'perks'],
  ['accounts', 'seats', 'analytics', 'integrations', 'search', 'site', 'podcasts', 'redirects'],
  // stripe/apply-payment-facts.ts sends each fact Stripe tells of to memberships, gifts or seats.
  ['stripe', 'webhooks'],
  ['desk', 'imports'],
  // Ghost's shapes, written from the site's own answers and rows (docs/ghost-api.md).
  ['ghost-api'],
  ['ghost-admin'],
];

/**
 * The edges call the domain modules, never the other way: a domain module imports no route,
 * plugin, HTTP helper or command (types included: Fastify's declarations reach every file without
 * one) and throws DomainError (domain-error.ts), not the edge's HttpError. Tests drive the whole
 * app from outside, so they may import any layer.
 */
export const serverEdgeFolders = ['http', 'plugins', 'routes', 'cli'];

const noClient = layer(['**/client/**'], 'The server cannot import client code.');
const serverImports = (...patterns) => ({
  'no-restricted-imports': ['error', { patterns: [noClient, ...patterns] }],
});
const serverEdges = [
  `server/src/{${serverEdgeFolders.join(',')}}/**`,
  'server/src/app.ts',
  'server/src/server.ts',
  '**/*.test.ts',
];
const foldersIn = (folders) => folders.map((folder) => `**/${folder}/**`);
const noEdges = [
  layer(
    [...foldersIn(serverEdgeFolders), '!**/http/errors.js'],
    'A domain module cannot import routes, plugins, HTTP helpers or commands: they call it, not the other way.',
  ),
  layer(
    ['**/http/errors.js'],
    'A domain module throws DomainError (domain-error.ts): HTTP is the error handler’s business.',
  ),
];
/** A folder in no layer yet: the layers keep off it until it has its place in serverLayers. */
const unplaced = readdirSync(new URL('./server/src', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((folder) => !serverLayers.flat().includes(folder) && !serverEdgeFolders.includes(folder));
const stripeLevel = serverLayers.findIndex((folders) => folders.includes('stripe'));
const stripeSdk = {
  name: 'stripe',
  message:
    'Stripe’s objects stay in stripe/ and above: a module below it takes facts (memberships/payment-facts.ts), not Stripe.',
};
const layerRules = serverLayers.flatMap((folders, level) =>
  folders.map((folder) => {
    const notBelow = [
      ...serverLayers
        .slice(level)
        .flat()
        .filter((other) => other !== folder),
      ...unplaced,
    ];
    const upward = layer(
      // An edge's own folders (routes/desk/) are the edges' message, not this one.
      [...foldersIn(notBelow), ...foldersIn(serverEdgeFolders).map((edge) => `!${edge}`)],
      `${folder}/ imports only the layers below its own (serverLayers, eslint.config.js): move what both need down, or let the caller pass it in.`,
    );
    return {
      files: [`server/src/${folder}/**/*.ts`],
      ignores: serverEdges,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            ...(level < stripeLevel && { paths: [stripeSdk] }),
            patterns: [noClient, ...noEdges, ...(notBelow.length > 0 ? [upward] : [])],
          },
        ],
      },
    };
  }),
);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'data/**',
      'server/src/generated/**',
      'test-results/**',
      'playwright-report/**',
      'tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [noServer] }],
    },
  },
  {
    files: ['client/src/{components,lib,config}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noServer,
            layer(
              ['**/features/**', '**/app/**'],
              'Shared code cannot import features or the app.',
            ),
          ],
        },
      ],
    },
  },
  ...features.map((feature) => ({
    files: [`client/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noServer,
            layer(['**/app/**'], 'A feature cannot import the app: pass what it needs down.'),
            layer(
              features.filter((other) => other !== feature).map((other) => `**/${other}/**`),
              'A feature cannot import another feature: move what they share to lib/ or components/.',
            ),
          ],
        },
      ],
    },
  })),
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [layer(['**/client/**', '**/server/**'], 'The contract imports neither side.')],
        },
      ],
    },
  },
  {
    // `replace` reads `$&`, `` $` `` and `$'` in a replacement string as the matched text and the
    // text around it: a title or a search query spliced in that way copies the page into itself.
    // Text goes in through a function; a string literal may use the patterns on purpose.
    files: ['server/**/*.ts', 'contract/**/*.ts', 'client/**/*.{ts,tsx}', 'scripts/**/*.mjs'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^replace(All)?$/][arguments.length=2]:not([arguments.1.type='Literal'], [arguments.1.type=/FunctionExpression$/], [arguments.1.type='TemplateLiteral'][arguments.1.expressions.length=0])",
          message:
            "Pass a function (() => text): a replacement string expands $&, $` and $' in the text it carries.",
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: serverImports(),
  },
  {
    // The root files (config.ts, services.ts, domain-error.ts...) are shared by every layer.
    files: ['server/src/**/*.ts'],
    ignores: serverEdges,
    rules: serverImports(...noEdges),
  },
  ...layerRules,
  {
    files: ['server/src/plugins/app/error-handler.ts'],
    rules: serverImports(
      layer(
        ['**/stripe/**'],
        'The error handler maps errors to answers: payments log and count Stripe’s failures (plugins/app/payments.ts).',
      ),
    ),
  },
  {
    // Data access (decision 9): the Prisma client for records handled one at a time, on their
    // own, in the modules that keep such records; explicit SQL everywhere else.
    files: ['server/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      'server/src/generated/**',
      'server/src/db/**',
      'server/src/accounts/**',
      'server/src/newsletter/subscribers.ts',
      'server/src/newsletter/export-csv.ts',
      'server/src/desk/member-actions.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'prisma',
          message:
            'Explicit SQL here (docs/decisions/0009-services-and-sql.md): the Prisma client is for the record modules it names, outside a caller’s transaction.',
        },
      ],
    },
  },
  {
    // One schema language (docs/development.md, "Schemas are TypeBox"). A rule of its own, not
    // core no-restricted-imports, whose options each block above replaces for its files.
    files: ['**/*.{ts,tsx,js,mjs}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: zodMessage }],
          patterns: [{ group: ['zod/*'], message: zodMessage }],
        },
      ],
    },
  },
);
