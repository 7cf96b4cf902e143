/** The rules for emails and passwords: the form checks them as you type, the server enforces them. */

export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase; bounded so nobody can make the KDF hash megabytes. */
export const MAX_PASSWORD_LENGTH = 256;
export const MAX_EMAIL_LENGTH = 254;

/** C0 and C1 control characters (NUL, newlines, escapes...): never part of an email or password. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

export const hasControlCharacters = (text: string): boolean => CONTROL_CHARACTERS.test(text);

/**
 * Emails are compared and stored once normalised: Unicode NFC (one spelling of "é"), trimmed
 * and lower-cased (the whole address: nobody expects Name@ and name@ to be two accounts).
 */
export function normalizeEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase();
}

/** A pragmatic check: something@something.tld, no spaces or control characters, ≤ 254. */
export function isValidEmail(email: string): boolean {
  return (
    email.length <= MAX_EMAIL_LENGTH &&
    !hasControlCharacters(email) &&
    /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email)
  );
}
