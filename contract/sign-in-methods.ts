/** How a browser signed in: shown per browser on /account, stored on its session. */
export const SIGN_IN_METHODS = ['password', 'link', 'code', 'passkey'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** What /account says for each method. */
export const SIGN_IN_METHOD_LABELS: Record<SignInMethod, string> = {
  password: 'Password',
  link: 'Link from an email',
  code: 'Code from an email',
  passkey: 'Passkey',
};
