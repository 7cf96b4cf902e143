import type { DeskOffer } from './offers.js';

// What an offer takes off, in words (no schema here: the desk's bundle imports it).

/** What an offer takes off, as readers read it: "20% off", "$5 off", "for 3 months". */
export function offerLabel(
  offer: Pick<
    DeskOffer,
    'percentOff' | 'amountOffCents' | 'currency' | 'duration' | 'durationMonths'
  >,
): string {
  const off =
    offer.percentOff !== null
      ? `${offer.percentOff}% off`
      : `${new Intl.NumberFormat('en-US', { style: 'currency', currency: offer.currency.toUpperCase() }).format((offer.amountOffCents ?? 0) / 100)} off`;
  const how =
    offer.duration === 'once'
      ? 'the first payment'
      : offer.duration === 'forever'
        ? 'every payment'
        : `for ${offer.durationMonths ?? 1} months`;
  return `${off} ${how}`;
}
