import type { Page } from '@playwright/test';
import { expect, test, type Account } from './fixtures.js';
import { visit } from './support/visit.js';

// Passkeys in a real Chromium with its virtual authenticator (the DevTools protocol's WebAuthn
// domain): nothing is mocked between the browser's WebAuthn and the server's verification. One
// story told in order: a passkey made on /account in the first test is carried (exported and
// added again) into the next ones' fresh browsers, signs in there, and stops once removed.
//
// The site runs as http://localhost:<port> (the project `localhost` in playwright.config.ts): a
// passkey's relying party is a host name, never an IP address, and Chromium allows WebAuthn on
// http://localhost.

test.describe.configure({ mode: 'serial' });

/** A credential as the WebAuthn domain exports it (its private key included) and adds it back. */
interface Credential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/** A platform authenticator with user verification, as a phone or laptop has. */
async function addAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    async credentials(): Promise<Credential[]> {
      return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    },
    async add(credential: Credential) {
      await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
    },
  };
}

const passkeysList = (page: Page) => page.getByRole('list', { name: 'Your passkeys' });

// What each test hands the next: the account and the passkey its authenticator holds.
let account: Account | null = null;
let saved: Credential | null = null;

test('a reader adds a passkey on /account: named after the browser, renamed, listed', async ({
  page,
  registered,
}) => {
  const authenticator = await addAuthenticator(page);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible();

  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByRole('status')).toHaveText(/Passkey added/);
  const item = passkeysList(page).getByRole('listitem');
  await expect(item).toHaveCount(1);
  // Named after the browser (Playwright's Desktop Chrome device says Windows).
  await expect(item).toContainText('Chrome on Windows');
  await expect(item).toContainText('never used yet');

  await page.getByRole('button', { name: 'Rename Chrome on Windows' }).click();
  await page.getByLabel('New name for “Chrome on Windows”').fill('Test laptop');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(item).toContainText('Test laptop');
  await page.reload();
  await expect(passkeysList(page).getByRole('listitem')).toContainText('Test laptop');

  const [credential] = await authenticator.credentials();
  expect(credential?.rpId).toBe('localhost');
  expect(credential?.isResidentCredential).toBe(true);
  account = registered;
  saved = credential ?? null;
});

test('the passkey signs in another browser from the email field’s autofill', async ({ page }) => {
  if (!account || !saved) throw new Error('the first test makes the passkey');
  const authenticator = await addAuthenticator(page);
  await authenticator.add(saved);

  // The page asks for a passkey as it opens (conditional mediation) and the browser offers it
  // under the email field; the virtual authenticator picks it as a person would.
  await visit(page, '/login');
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
  await expect(passkeysList(page).getByRole('listitem')).toContainText(/last used/);
  // The authenticator's counter moved on: the next browser gets the credential as it is now.
  saved = (await authenticator.credentials())[0] ?? null;
});

test('the passkey signs in with the “Sign in with a passkey” button', async ({ page }) => {
  if (!account || !saved) throw new Error('the first test makes the passkey');
  const authenticator = await addAuthenticator(page);
  await authenticator.add(saved);
  // The autofill's request for options is left unanswered, so only the button can sign in.
  let autofillAsked = false;
  await page.route('**/api/auth/passkey/sign-in/options', async (route) => {
    if (autofillAsked) return route.continue();
    autofillAsked = true;
  });

  await visit(page, '/login');
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  await expect.poll(() => autofillAsked).toBe(true);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
  saved = (await authenticator.credentials())[0] ?? null;
});

test.describe('once removed', () => {
  // The refused sign-in is the point: Chromium logs the 401 as a console error.
  test.use({ expectedConsoleErrors: [/status of 401/] });

  test('the passkey no longer signs in; this browser stays signed in', async ({ page }) => {
    if (!account || !saved) throw new Error('the first tests make and use the passkey');
    const authenticator = await addAuthenticator(page);
    await authenticator.add(saved);
    await visit(page, '/login'); // signed in by the autofill
    await expect(page).toHaveURL(/\/account$/);

    await page.getByRole('button', { name: 'Remove Test laptop' }).click();
    await expect(page.getByText('“Test laptop” was removed: it no longer signs in.')).toBeVisible();
    await expect(page.getByText('You have no passkeys yet.')).toBeVisible();
    await page.reload();
    await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();

    // This browser's "Sign out" (the first: the other signed-in browsers' come after it).
    await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
    await expect(page).toHaveURL(/\/$/);
    // The browser still holds the passkey and offers it; the site no longer knows it.
    await page.goto('/login');
    await expect(page.getByRole('alert')).toHaveText(
      /This passkey does not belong to an account here/,
    );
    // Told so (signalUnknownCredential), the browser forgets the passkey.
    await expect.poll(() => authenticator.credentials()).toEqual([]);
    await expect(page).toHaveURL(/\/login$/);
  });
});
