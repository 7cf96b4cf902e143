/** The rules for emails and passwords: the form checks them as you type, the server enforces them. */

export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase; bounded so nobody can make the KDF hash megabytes. */
export const MAX_PASSWORD_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;

/** Emails are compared and stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A pragmatic check: something@something.tld, no spaces, at most 254 characters. */
export function isValidEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
}
