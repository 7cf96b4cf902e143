/**
 * The last day (UTC, `YYYY-MM-DD`) of a period that ends at `end`, exclusive. Periods end at the
 * instant access stops: a comp given through 2027-11-24 ends at 2027-11-25T00:00Z, a year bought
 * at 15:00 ends at 15:00 a year later. Either way the reader's last day is the day of the instant
 * just before the end, which is what "ends on" and "through" must say.
 */
export function lastDayOf(end: Date | string): string {
  const ms = (typeof end === 'string' ? new Date(end) : end).getTime();
  return new Date(ms - 1).toISOString().slice(0, 10);
}
