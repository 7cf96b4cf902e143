import Stripe from 'stripe';
import { DomainError } from '../domain-error.js';

/**
 * Every call to Stripe's API goes through `callStripe`: one deadline for the whole call (the SDK's
 * retry included), and one way a failure reaches people. The visitor gets our message, never
 * Stripe's text (it can hold a key fragment or the account's setup); the operator gets Stripe's
 * type, code, status and request id in an error-level log line, and the failure is counted
 * (`logStripeFailure`, called by the payments plugin for every request a failure ends).
 */

/** What the operator needs from a Stripe failure to look it up in the Dashboard's logs. */
export interface StripeFailure {
  /** What Cohort was doing: "create a PaymentIntent", "read a subscription"... */
  operation: string;
  /** The SDK's error class (`StripeAuthenticationError`...) or `timeout`. */
  type: string;
  code: string | undefined;
  /** Stripe's HTTP status; undefined when no answer came. */
  statusCode: number | undefined;
  requestId: string | undefined;
  /** Stripe's own words, for the log only. */
  message: string;
}

const VISITOR_MESSAGE = {
  unavailable:
    'Payments are not working right now. Nothing was charged; please try again in a few minutes.',
  misconfigured:
    'Payments are unavailable on this site right now. Nothing was charged; the site’s team has been told.',
};

/**
 * Stripe refused the call or did not answer: one message for the visitor, details for the log.
 * Stripe's details ride in `stripe`, never in the error's `details`, which the visitor gets.
 */
export class PaymentsUnavailableError extends DomainError {
  override name = 'PaymentsUnavailableError';
  constructor(readonly stripe: StripeFailure) {
    // A key Stripe refuses will not start working by itself: 503, the site's setup is wrong.
    const misconfigured = isMisconfiguration(stripe);
    super(
      misconfigured ? 503 : 502,
      'payments_unavailable',
      misconfigured ? VISITOR_MESSAGE.misconfigured : VISITOR_MESSAGE.unavailable,
    );
  }
}

/** Stripe refused the secret key (wrong, rolled or deleted) or its permissions. */
export const isMisconfiguration = (failure: Pick<StripeFailure, 'type' | 'statusCode'>) =>
  failure.type === 'StripeAuthenticationError' ||
  failure.type === 'StripePermissionError' ||
  failure.statusCode === 401 ||
  failure.statusCode === 403;

/** How long a call may take when the client does not say (matches the config's default). */
const DEFAULT_DEADLINE_MS = 7_000;

/**
 * Calls Stripe. The SDK retries a failed attempt once; `STRIPE_TIMEOUT_MS` (the client's
 * `timeout`) bounds the whole call, not each attempt: past it the visitor gets an answer, and an
 * attempt still in flight is left to finish or fail on its own. Its idempotency key (for anything
 * that creates or changes an object) makes it harmless.
 */
export async function callStripe<T>(
  stripe: Stripe,
  operation: string,
  call: (stripe: Stripe) => Promise<T>,
): Promise<T> {
  const deadlineMs = stripe.getApiField('timeout') ?? DEFAULT_DEADLINE_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new PaymentsUnavailableError({
            operation,
            type: 'timeout',
            code: undefined,
            statusCode: undefined,
            requestId: undefined,
            message: `Stripe did not answer within ${deadlineMs} ms (STRIPE_TIMEOUT_MS)`,
          }),
        ),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([call(stripe), deadline]);
  } catch (error) {
    if (error instanceof PaymentsUnavailableError) throw error;
    if (error instanceof Stripe.errors.StripeError) {
      throw new PaymentsUnavailableError({
        operation,
        type: error.type,
        code: error.code,
        statusCode: error.statusCode,
        requestId: error.requestId,
        message: error.message,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The error-level line an operator searches for: Stripe's type, code, status and request id
 * (Dashboard → Developers → Logs finds the request by its id).
 */
export function logStripeFailure(
  log: { error(detail: object, message: string): void },
  error: PaymentsUnavailableError,
): void {
  const { operation, ...stripe } = error.stripe;
  log.error(
    { stripe, misconfigured: isMisconfiguration(error.stripe) },
    `Stripe call failed: ${operation}: ${stripe.type}${stripe.statusCode ? ` ${stripe.statusCode}` : ''}${stripe.code ? ` ${stripe.code}` : ''}`,
  );
}

const failureOf = (error: unknown): StripeFailure | null =>
  error instanceof PaymentsUnavailableError ? error.stripe : null;

/**
 * Stripe answered that the object does not exist (deleted, or of another account or mode). Only
 * `resource_missing`: a 404 for an unknown URL is a fault to report, not an absent object.
 */
export const isStripeNotFound = (error: unknown): boolean =>
  failureOf(error)?.code === 'resource_missing';

/** Stripe answered with this error code (`charge_already_refunded`, ...). */
export const hasStripeCode = (error: unknown, code: string): boolean =>
  failureOf(error)?.code === code;

/** Reads an object from Stripe; null when Stripe says it does not exist. */
export async function retrieveOrNull<T>(
  stripe: Stripe,
  operation: string,
  call: (stripe: Stripe) => Promise<T>,
): Promise<T | null> {
  try {
    return await callStripe(stripe, operation, call);
  } catch (error) {
    if (isStripeNotFound(error)) return null;
    throw error;
  }
}

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);
