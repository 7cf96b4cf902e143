import { paths } from './site-paths.js';

// Gifts' constants, for the server and the browser alike (no schema library: the gift form's chunk
// stays small).

/** What a gift's PaymentIntent carries in its metadata `offer`: how the ledger knows it. */
export const GIFT_OFFER = 'gift';
/** Days a claimed gift gives: a year, as the one-time plan. */
export const GIFT_DAYS = 365;
export const GIFT_MESSAGE_MAX = 500;
export const GIFT_NAME_MAX = 80;
/** How far ahead a gift may be sent. */
export const GIFT_SEND_AHEAD_DAYS = 366;
/** Where the recipient's mail points: the token follows in the fragment, never sent to a server. */
export const GIFT_CLAIM_PATH = paths.giftClaim;
