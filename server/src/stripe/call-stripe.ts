import { HttpError } from '../http/errors.js';

/** Stripe could not be reached or failed: the visitor gets a clear message, nothing is written. */
export class StripeUnavailableError extends HttpError {
  constructor(cause: unknown) {
    super(
      502,
      'payment_provider_unavailable',
      'The payment provider is not answering right now. Nothing was charged; please try again in a minute.',
    );
    this.cause = cause;
  }
}

interface StripeErrorLike {
  type?: string;
  code?: string;
  statusCode?: number;
}

const asStripeError = (error: unknown): StripeErrorLike =>
  typeof error === 'object' && error !== null ? (error as StripeErrorLike) : {};

/** Calls Stripe, turning its connection and server errors into a `StripeUnavailableError`. */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const { type } = asStripeError(error);
    if (
      type === 'StripeConnectionError' ||
      type === 'StripeAPIError' ||
      type === 'StripeRateLimitError'
    ) {
      throw new StripeUnavailableError(error);
    }
    throw error;
  }
}

/** Stripe answered that the object does not exist (deleted, or of another account or mode). */
export const isStripeNotFound = (error: unknown): boolean =>
  asStripeError(error).statusCode === 404 || asStripeError(error).code === 'resource_missing';

/** Stripe answered with this error code (`charge_already_refunded`, ...). */
export const hasStripeCode = (error: unknown, code: string): boolean =>
  asStripeError(error).code === code;

/** Reads an object from Stripe; null when Stripe says it does not exist. */
export async function retrieveOrNull<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await callStripe(call);
  } catch (error) {
    if (isStripeNotFound(error)) return null;
    throw error;
  }
}

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);
