/**
 * How a browser signed in: stored on its session (`sessions.signInMethod`), shown per browser on
 * /account. A password; a link or a code mailed to the address (both prove it); a passkey.
 */
export const SIGN_IN_METHODS = ['password', 'link', 'code', 'passkey'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];
