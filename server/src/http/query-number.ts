import { HttpError } from './errors.js';

/**
 * A whole number sent in a query string: its values are always text (the app's ajv coerces no
 * types), so a route's schema takes it as a string and reads it here. Absent, `fallback`; anything
 * but digits from `min` to `max` is a 400 naming the parameter.
 */
export function readQueryNumber(
  value: string | undefined,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
): number {
  if (value === undefined) return fallback;
  const number = /^[0-9]{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) {
    throw new HttpError(
      400,
      'invalid_request',
      `${name}: must be a whole number from ${min} to ${max}`,
    );
  }
  return number;
}
