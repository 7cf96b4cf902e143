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
 * The server's layers (docs/decisions/0009-services-and-sql.md). The edges (routes/, plugins/,
 * http/, cli/, app.ts, server.ts) call the domain modules, never the other way: a domain module
 * imports no route or plugin (types included: Fastify's declarations reach every file without
 * one) and throws DomainError (domain-error.ts), not the edge's HttpError. At the bottom,
 * memberships/ (facts in, entitlements out) imports none of the modules that call it. Tests drive
 * the whole app from outside, so they may import any layer.
 */
const noClient = layer(['**/client/**'], 'The server cannot import client code.');
const serverImports = (...patterns) => ({
  'no-restricted-imports': ['error', { patterns: [noClient, ...patterns] }],
});
const serverEdges = [
  'server/src/{routes,plugins,http,cli}/**',
  'server/src/app.ts',
  'server/src/server.ts',
  '**/*.test.ts',
];
const aboveMemberships = [
  'desk',
  'routes',
  'plugins',
  'http',
  'stripe',
  'gifts',
  'seats',
  'accounts',
  'newsletter',
  'content',
  'cli',
];

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
    files: ['server/src/**/*.ts'],
    ignores: serverEdges,
    rules: serverImports(
      layer(
        ['**/routes/**', '**/plugins/**'],
        'A domain module cannot import routes or plugins: they call it, not the other way.',
      ),
      layer(
        ['**/http/errors.js'],
        'A domain module throws DomainError (domain-error.ts): HTTP is the error handler’s business.',
      ),
    ),
  },
  {
    files: ['server/src/memberships/**/*.ts'],
    ignores: serverEdges,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'stripe',
              message: 'memberships/ takes facts, not Stripe: calls to Stripe are stripe/’s.',
            },
          ],
          patterns: [
            noClient,
            layer(
              aboveMemberships.map((folder) => `**/${folder}/**`),
              'memberships/ is the bottom layer (facts in, entitlements out): the modules above call it, it imports none of them.',
            ),
          ],
        },
      ],
    },
  },
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
