import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../../contract/api';
import { NoteField, yearPrice } from './giving-form';

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
});
