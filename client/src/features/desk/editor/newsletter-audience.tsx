import type {
  NewsletterAudience,
  NewsletterAudienceName,
  NewsletterReach,
} from '../../../../../contract/newsletters';

/** The audiences as the desk offers them, with who is in each. */
const CHOICES: readonly { value: NewsletterAudienceName; label: string; hint?: string }[] = [
  { value: 'all', label: 'Everyone subscribed' },
  {
    value: 'free',
    label: 'Free members',
    hint: 'No paid access now, with an account or without.',
  },
  { value: 'paid', label: 'Paying members', hint: 'Members of every tier.' },
  { value: 'tiers', label: 'Chosen tiers', hint: 'Members of the tiers ticked here.' },
];

const number = (n: number) => n.toLocaleString('en-US');

/** What one and many of an audience's readers are called: "paying member", "paying members". */
export function audienceNouns(
  audience: NewsletterAudience,
  reach: NewsletterReach | undefined,
): [string, string] {
  switch (audience.audience) {
    case 'all':
      return ['subscriber', 'subscribers'];
    case 'free':
      return ['free member', 'free members'];
    case 'paid':
      return ['paying member', 'paying members'];
    case 'tiers': {
      const names = audience.tiers.map(
        (slug) => reach?.tiers.find((tier) => tier.slug === slug)?.name ?? slug,
      );
      const list =
        names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
      return [`member on ${list}`, `members on ${list}`];
    }
  }
}

/**
 * Who "Send" mails: everyone subscribed, free members, paying members or chosen tiers, each with
 * how many it would newly reach. Each reader gets what the post lets them read, whoever is chosen.
 */
export function AudienceChoice({
  audience,
  reach,
  onChange,
}: {
  audience: NewsletterAudience;
  reach: NewsletterReach;
  onChange: (audience: NewsletterAudience) => void;
}) {
  const countOf = (value: NewsletterAudienceName) => (value === 'tiers' ? null : reach[value]);
  return (
    <fieldset className="post-editor__audience">
      <legend>Send to</legend>
      {CHOICES.map((choice) => {
        const count = countOf(choice.value);
        return (
          <label key={choice.value} className="post-editor__audience-choice">
            <input
              type="radio"
              name="newsletter-audience"
              value={choice.value}
              checked={audience.audience === choice.value}
              onChange={() =>
                onChange({
                  audience: choice.value,
                  tiers: choice.value === 'tiers' ? audience.tiers : [],
                })
              }
            />
            <span>
              {choice.label}
              {count !== null && (
                <span className="post-editor__audience-count"> · {number(count)}</span>
              )}
              {choice.hint && <span className="post-editor__audience-hint">{choice.hint}</span>}
            </span>
          </label>
        );
      })}
      {audience.audience === 'tiers' && (
        <div className="post-editor__audience-tiers" role="group" aria-label="Tiers">
          {reach.tiers.map((tier) => (
            <label key={tier.slug}>
              <input
                type="checkbox"
                checked={audience.tiers.includes(tier.slug)}
                onChange={(event) =>
                  onChange({
                    audience: 'tiers',
                    tiers: event.target.checked
                      ? reach.tiers
                          .map((each) => each.slug)
                          .filter((slug) => slug === tier.slug || audience.tiers.includes(slug))
                      : audience.tiers.filter((slug) => slug !== tier.slug),
                  })
                }
              />{' '}
              {tier.name}
              <span className="post-editor__audience-count"> · {number(tier.recipients)}</span>
            </label>
          ))}
          {audience.tiers.length === 0 && <p className="desk__small">Tick at least one tier.</p>}
        </div>
      )}
    </fieldset>
  );
}
