/**
 * Whose newsletter consent is whose. The newsletter goes to an address, and a sign-up row
 * (`newsletter_subscribers`, one per address) is the consent of that address, however it came:
 * the site's form, an import, the Admin API. An account's consent is therefore its address's row.
 *
 * The row's `userId` says something else: that the account proved the address
 * (docs/decisions/0014-proven-addresses.md) and may manage the sign-up from its own page. An
 * imported member has not, until their first sign-in by link or code, yet the newsletter already
 * reaches them. So everything that reports or uses consent (the desk's list, filters and CSVs, the
 * exports, the sends' audiences) joins by address through these, and all of them agree.
 */

/** The condition that the subscriber row `n` is the consent of the account `u`. */
export const subscriberOfAccountSql = (n: string, u: string) => `${n}."email" = ${u}."email"`;

/** The id of the account whose consent the subscriber row `s` is (NULL: no account has it). */
export const accountOfSubscriberSql = (s: string) =>
  `(SELECT a."id" FROM "users" a WHERE a."email" = ${s}."email")`;
