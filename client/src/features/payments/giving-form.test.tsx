import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../../contract/api';
import { NoteField, TierChoice, yearPrice, type GivenTier } from './giving-form';

const config = (fields: Partial<SiteConfig>) =>
  ({ priceCents: 1200, currency: 'usd', plans: [], ...fields }) as SiteConfig;

describe('the giving pages', () => {
  it('price a gift or a seat as the year paid once, else the site’s price, else $12 before the config arrives', () => {
    const year = { id: 'early-access', amountCents: 2500, currency: 'eur' };
    expect(yearPrice(config({ currency: 'eur', plans: [year] as SiteConfig['plans'] }))).toBe(
      '€25',
    );
    expect(yearPrice(config({ priceCents: 1800 }))).toBe('$18');
    expect(yearPrice(null)).toBe('$12');
  });

  it('count a note’s characters against its limit, under the field', () => {
    expect(
      renderToStaticMarkup(
        <NoteField
          id="seat-note"
          label="Your note"
          value="I lost my job."
          onChange={() => {}}
          maxLength={600}
        />,
      ),
    ).toBe(
      '<div class="field"><label for="seat-note">Your note</label>' +
        '<textarea id="seat-note" rows="4" maxLength="600" aria-describedby="seat-note-count">I lost my job.</textarea>' +
        '<p id="seat-note-count" class="field__hint">14 / 600</p></div>',
    );
  });

  it('ask which tier a gift or a seat is a year of only when several sell one, each with its price', () => {
    const tier = (slug: string, name: string, once: number): GivenTier => ({
      slug,
      name,
      description: '',
      benefits: [],
      prices: { monthly: null, yearly: null, once },
      currency: 'usd',
      trialDays: 0,
      order: 0,
    });
    const supporter = tier('supporter', 'Supporter', 1200);
    const choice = (tiers: GivenTier[]) =>
      renderToStaticMarkup(
        <TierChoice
          legend="The membership you give"
          tiers={tiers}
          value="founder"
          onChange={() => {}}
        />,
      );
    expect(choice([supporter])).toBe('');
    const markup = choice([supporter, tier('founder', 'Founder', 4000)]);
    expect(markup).toContain('<legend>The membership you give</legend>');
    expect(markup).toContain('Supporter<span class="giving-tiers__price">$12 a year</span>');
    expect(markup).toContain('checked="" value="founder"');
    expect(markup).toContain('Founder<span class="giving-tiers__price">$40 a year</span>');
  });
});
