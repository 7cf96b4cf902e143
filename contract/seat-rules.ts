// Solidarity seats' constants, for the server and the browser alike.

/** What a supporter's PaymentIntent carries in its metadata `offer`. */
export const SEATS_OFFER = 'seats';
/** Days a granted seat gives: a year. */
export const SEAT_DAYS = 365;
/** Seats one payment can fund. */
export const MAX_SEATS_PER_PAYMENT = 50;
export const SEAT_NOTE_MIN = 10;
export const SEAT_NOTE_MAX = 500;
