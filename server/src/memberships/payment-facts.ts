import type { EntitlementState } from './derive-membership.js';

/**
 * What Stripe says about a payment, read from Stripe itself just before the ledger records it
 * (server/src/stripe/read-payment-facts.ts). stripe/apply-payment-facts.ts gives each to the module
 * that places it (the membership ledger, gifts, seats); none reads an event's snapshot.
 */

/** What became of a payment's charge: kept, disputed, refunded or lost in a dispute. */
export interface PaymentOutcome {
  state: EntitlementState;
  /** Why it is not `active`: refund, dispute, dispute_lost. */
  reason: string | null;
}

export interface SubscriptionFact {
  kind: 'subscription';
  subscriptionId: string;
  /** The user id Cohort put in the subscription's metadata at Checkout. */
  userId: string | null;
  customerId: string;
  status: string;
  /** Its Cohort Price's billing interval: month or year. */
  interval: string | null;
  /** Its Cohort Price, and the amount that Price charges. */
  priceId: string | null;
  amountCents: number | null;
  createdAt: Date;
  /** When Stripe ended it (canceled), else null. */
  endedAt: Date | null;
  /** When its free trial ends (or ended), else null. */
  trialEnd: Date | null;
  /** The offer Cohort's Checkout applied to it (its metadata), if any. */
  offerId: string | null;
  /** The redemption of that offer its Checkout held (offer-redemptions.ts), if any. */
  offerRedemptionId: string | null;
  /** The invoice for its current period: a refund of that one stops the subscription. */
  latestInvoiceId: string | null;
  /**
   * The tier its Price sells now (a Cohort Price's metadata or lookup key, or an import's mapping
   * of another platform's, `--price <id>=<tier>/<plan>`): what its next period will be; null: the
   * first tier.
   */
  tierId: number | null;
  readAt: Date;
}

export interface OneTimeFact {
  kind: 'one-time';
  paymentIntentId: string;
  userId: string;
  customerId: string | null;
  amountCents: number;
  currency: string;
  paidAt: Date;
  outcome: PaymentOutcome;
  readAt: Date;
  /** The offer whose discount priced it, if any. */
  offerId: string | null;
  /** The redemption of that offer its checkout held (offer-redemptions.ts), if any. */
  offerRedemptionId: string | null;
  /** The tier whose year it is (its metadata); null: the first. */
  tierId: number | null;
}

export interface InvoiceFact {
  kind: 'invoice';
  invoiceId: string;
  subscription: SubscriptionFact;
  /** Null for an invoice that needed no payment (a trial, a full discount). */
  paymentIntentId: string | null;
  amountCents: number;
  currency: string;
  paidAt: Date;
  periodStart: Date;
  periodEnd: Date;
  /** The $0 invoice of a free trial's period. */
  trial: boolean;
  /** The offer whose discount this invoice took, if any. */
  offerId: string | null;
  /**
   * The tier of the period it pays for: its Price's, on the line that period is read from (not the
   * subscription's now, which a move at the period's end has changed); null: the subscription's.
   */
  tierId: number | null;
  outcome: PaymentOutcome;
  readAt: Date;
}

/**
 * A gift's PaymentIntent: who bought it, for whom, and the payment's fate. The gift's
 * details come from the metadata the server set when it priced the payment.
 */
export interface GiftFact {
  kind: 'gift';
  giftId: string;
  paymentIntentId: string;
  buyerUserId: string;
  buyerEmail: string | null;
  fromName: string | null;
  recipientEmail: string;
  message: string | null;
  /** When the recipient is mailed; null: as soon as it is paid. */
  sendAt: Date | null;
  /** The tier whose year it gives; null: the first (a gift paid before tiers). */
  tierId: number | null;
  amountCents: number;
  currency: string;
  paidAt: Date;
  outcome: PaymentOutcome;
  readAt: Date;
}

/** A supporter's payment for solidarity seats, and its fate. */
export interface SeatFundingFact {
  kind: 'seats';
  fundingId: string;
  paymentIntentId: string;
  supporterUserId: string;
  supporterEmail: string | null;
  seats: number;
  /** The tier each seat is a year of; null: the first (seats paid before tiers). */
  tierId: number | null;
  amountCents: number;
  currency: string;
  paidAt: Date;
  outcome: PaymentOutcome;
  readAt: Date;
}

/** The facts the membership ledger places itself; gifts and seats have modules of their own. */
export type MembershipFact = SubscriptionFact | OneTimeFact | InvoiceFact;

export type PaymentFact = MembershipFact | GiftFact | SeatFundingFact;
