const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

/**
 * "March 4, 2024" for the ISO date "2024-03-04" or an ISO timestamp on that day (UTC), the same in
 * every time zone.
 */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso.includes('T') ? iso : `${iso}T00:00:00Z`));
}

/** "$12.00" for 1200 cents of usd. */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}
