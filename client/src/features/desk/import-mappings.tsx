import { useEffect, useState, type ReactNode } from 'react';
import { fetchTiers } from './tiers-api';

// The Import page's mappings, as `npm run import` takes them: `--map <tag>=<section>` (posts with
// a tag go to that section) and `--price <Stripe price id>=[<tier>/]<plan>` (members paying that
// price on the old platform have that plan here). Rows are added and removed; empty rows are left
// out of the upload.

export interface TagMapping {
  tag: string;
  section: string;
}

export interface PriceMapping {
  price: string;
  /** A tier's slug; empty for the first tier. */
  tier: string;
  plan: 'monthly' | 'yearly';
}

export interface ImportMappingsValue {
  map: TagMapping[];
  prices: PriceMapping[];
}

export const NO_MAPPINGS: ImportMappingsValue = { map: [], prices: [] };

/** The mappings as the upload's repeated `map` and `price` fields. */
export function mappingFields(value: ImportMappingsValue): ['map' | 'price', string][] {
  return [
    ...value.map
      .filter((row) => row.tag.trim() !== '' && row.section !== '')
      .map((row) => ['map', `${row.tag.trim()}=${row.section}`] as ['map', string]),
    ...value.prices
      .filter((row) => row.price.trim() !== '')
      .map(
        (row) =>
          [
            'price',
            `${row.price.trim()}=${row.tier.trim() ? `${row.tier.trim()}/` : ''}${row.plan}`,
          ] as ['price', string],
      ),
  ];
}

/** The site's tiers' slugs, for the price rows' suggestions; empty until (or unless) they load. */
function useTierSlugs(wanted: boolean): string[] {
  const [slugs, setSlugs] = useState<string[]>([]);
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    fetchTiers(controller.signal).then(
      ({ tiers }) => setSlugs(tiers.map((tier) => tier.slug)),
      () => setSlugs([]),
    );
    return () => controller.abort();
  }, [wanted]);
  return slugs;
}

export function ImportMappings({
  value,
  onChange,
  sections,
  withTags,
  withPrices,
  disabled,
}: {
  value: ImportMappingsValue;
  onChange: (value: ImportMappingsValue) => void;
  sections: string[];
  /** The file has posts (every platform but a members list). */
  withTags: boolean;
  /** The file may have paying members (Ghost, Substack, a members list). */
  withPrices: boolean;
  disabled: boolean;
}) {
  const tiers = useTierSlugs(withPrices);
  const setRow = <K extends keyof ImportMappingsValue>(
    key: K,
    index: number,
    row: ImportMappingsValue[K][number],
  ) => onChange({ ...value, [key]: value[key].map((each, at) => (at === index ? row : each)) });
  const removeRow = (key: keyof ImportMappingsValue, index: number) =>
    onChange({ ...value, [key]: value[key].filter((_, at) => at !== index) });

  return (
    <>
      {withTags && (
        <fieldset className="desk-import__mappings">
          <legend>Tags to sections</legend>
          <p className="desk__note">
            Posts with a tag go to its section; the first mapped tag of a post wins, the others go
            to the section above.
          </p>
          {value.map.map((row, index) => (
            <MappingRow
              key={index}
              label={`Remove the mapping of tag ${index + 1}`}
              disabled={disabled}
              onRemove={() => removeRow('map', index)}
            >
              <label className="desk-field">
                <span>Tag</span>
                <input
                  value={row.tag}
                  disabled={disabled}
                  maxLength={200}
                  onChange={(event) => setRow('map', index, { ...row, tag: event.target.value })}
                />
              </label>
              <label className="desk-field">
                <span>Section</span>
                <select
                  value={row.section}
                  disabled={disabled}
                  onChange={(event) =>
                    setRow('map', index, { ...row, section: event.target.value })
                  }
                >
                  {sections.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
            </MappingRow>
          ))}
          <button
            type="button"
            className="button button--outline"
            disabled={disabled || sections.length === 0}
            onClick={() =>
              onChange({ ...value, map: [...value.map, { tag: '', section: sections[0] ?? '' }] })
            }
          >
            Map a tag to a section
          </button>
        </fieldset>
      )}
      {withPrices && (
        <fieldset className="desk-import__mappings">
          <legend>Stripe prices to plans</legend>
          <p className="desk__note">
            Members paying one of these prices on the old platform, in the same Stripe account, get
            that plan here (of the tier named, else the first). Prices of the site’s own plans need
            none.
          </p>
          <datalist id="import-tier-slugs">
            {tiers.map((slug) => (
              <option key={slug} value={slug} />
            ))}
          </datalist>
          {value.prices.map((row, index) => (
            <MappingRow
              key={index}
              price
              label={`Remove the mapping of price ${index + 1}`}
              disabled={disabled}
              onRemove={() => removeRow('prices', index)}
            >
              <label className="desk-field">
                <span>Stripe price id</span>
                <input
                  value={row.price}
                  disabled={disabled}
                  maxLength={255}
                  placeholder="price_…"
                  onChange={(event) =>
                    setRow('prices', index, { ...row, price: event.target.value })
                  }
                />
              </label>
              <label className="desk-field">
                <span>Tier</span>
                <input
                  value={row.tier}
                  disabled={disabled}
                  list="import-tier-slugs"
                  placeholder="the first"
                  onChange={(event) =>
                    setRow('prices', index, { ...row, tier: event.target.value })
                  }
                />
              </label>
              <label className="desk-field">
                <span>Plan</span>
                <select
                  value={row.plan}
                  disabled={disabled}
                  onChange={(event) =>
                    setRow('prices', index, {
                      ...row,
                      plan: event.target.value === 'yearly' ? 'yearly' : 'monthly',
                    })
                  }
                >
                  <option value="monthly">Monthly</option>
                  <option value="yearly">Yearly</option>
                </select>
              </label>
            </MappingRow>
          ))}
          <button
            type="button"
            className="button button--outline"
            disabled={disabled}
            onClick={() =>
              onChange({
                ...value,
                prices: [...value.prices, { price: '', tier: '', plan: 'monthly' }],
              })
            }
          >
            Map a Stripe price to a plan
          </button>
        </fieldset>
      )}
    </>
  );
}

/** One mapping's fields, and the button that takes the mapping out. */
function MappingRow({
  price = false,
  label,
  disabled,
  onRemove,
  children,
}: {
  /** A price's row: one field more. */
  price?: boolean;
  /** What the Remove button says to a screen reader: which mapping it takes out. */
  label: string;
  disabled: boolean;
  onRemove: () => void;
  children: ReactNode;
}) {
  return (
    <div className={`desk-import__mapping${price ? ' desk-import__mapping--price' : ''}`}>
      {children}
      <button
        type="button"
        className="button button--outline"
        disabled={disabled}
        aria-label={label}
        onClick={onRemove}
      >
        Remove
      </button>
    </div>
  );
}
