/**
 * The Tier box of a desk form that is for one tier (a comp, an offer): every tier, a hidden one
 * said so; nothing on a site of one tier, where there is nothing to choose.
 */
export function TierSelect({
  tiers,
  value,
  onChange,
  disabled = false,
}: {
  tiers: readonly { slug: string; name: string; visible: boolean }[];
  value: string;
  onChange: (slug: string) => void;
  disabled?: boolean;
}) {
  if (tiers.length <= 1) return null;
  return (
    <label className="desk-field">
      <span>Tier</span>
      <select value={value} onChange={(event) => onChange(event.target.value)} disabled={disabled}>
        {tiers.map((each) => (
          <option key={each.slug} value={each.slug}>
            {each.name}
            {each.visible ? '' : ' (hidden)'}
          </option>
        ))}
      </select>
    </label>
  );
}
