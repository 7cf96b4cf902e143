import { useEffect, useState } from 'react';
import { describeFailure } from '../../lib/api-client';
import { formatDate } from '../../lib/format-date';
import { useSession } from '../../lib/session/session-context';
import { useSiteConfig } from '../../lib/site-config';
import { planPriceLabel } from '../../../../contract/plan-rules';
import type { AccountTier, TierMoveOption } from '../../../../contract/tier-moves';
import { getAccountTier, moveTier } from './account-api';

/** The member's tier (GET /api/account/tier), loaded once, and again for each `version`. */
export function useAccountTier(version = 0): AccountTier | null {
  const [standing, setStanding] = useState<AccountTier | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    getAccountTier(controller.signal).then(setStanding, () => undefined); // the page works without it
    return () => controller.abort();
  }, [version]);
  return standing;
}

/** A day as the account page says it, from an ISO time. */
const dayOf = (iso: string | null) => (iso ? formatDate(iso) : 'your renewal');

/**
 * The member's tier on /account, and the tiers to move to: each with what it gives and costs,
 * and, before anything is done, what the move will do (a dearer tier now, the difference charged
 * for the time left; a cheaper one from the renewal). A move waiting for the renewal can be undone.
 */
export function TierMoves({ standing, onMoved }: { standing: AccountTier; onMoved: () => void }) {
  const config = useSiteConfig();
  const { refresh } = useSession();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const { tier, renewsAs, interval, moves, refusal } = standing;
  if (!tier) return null;
  const until = dayOf(standing.periodEnd);

  /** Makes the move; `done` is what to say after (none: the panel's new state says it). */
  async function move(slug: string, done: string | null) {
    setBusy(true);
    setOutcome(null);
    try {
      await moveTier(slug);
      if (done) setOutcome({ ok: true, text: done });
      setConfirming(null);
      onMoved();
      void refresh();
    } catch (error) {
      setOutcome({ ok: false, text: describeFailure(error) });
    } finally {
      setBusy(false);
    }
  }

  const price = (option: TierMoveOption) =>
    planPriceLabel({ amountCents: option.amountCents, currency: option.currency, interval });
  const what = (option: TierMoveOption) =>
    option.when === 'now'
      ? `Move to ${option.name} now? Today your card is charged the difference between ${option.name}'s price and what you pay, for the rest of this ${interval ?? 'period'}; ${option.name} starts at once, and renews at ${price(option)}.`
      : `Move to ${option.name} on ${until}? You stay ${tier.name} until then, and nothing is charged or refunded now; from ${until} your membership renews as ${option.name}, at ${price(option)}.`;

  return (
    <section className="tier-moves" aria-labelledby="tier-moves-title">
      <h3 id="tier-moves-title">Your membership: {tier.name}</h3>
      {renewsAs && (
        <div className="tier-moves__waiting">
          <p role="status">
            You move to {renewsAs.name} on {until}. Until then you stay {tier.name}.
          </p>
          <p>
            <button
              type="button"
              className="button button--outline"
              disabled={busy}
              onClick={() => void move(tier.slug, `You stay ${tier.name}.`)}
            >
              Stay {tier.name}
            </button>
          </p>
        </div>
      )}
      {refusal && <p className="tier-moves__note">{refusal.message}</p>}
      {moves.length > 0 && (
        <ul className="tier-moves__list">
          {moves.map((option) => {
            const about = config?.tiers.find((each) => each.slug === option.slug);
            return (
              <li key={option.slug} className="tier-move">
                <p className="tier-move__head">
                  <strong>{option.name}</strong> <span>{price(option)}</span>
                </p>
                {about?.description && <p className="tier-move__about">{about.description}</p>}
                {about && about.benefits.length > 0 && (
                  <ul className="tier-move__benefits">
                    {about.benefits.map((benefit) => (
                      <li key={benefit}>{benefit}</li>
                    ))}
                  </ul>
                )}
                {confirming === option.slug ? (
                  <>
                    <p>{what(option)}</p>
                    <p className="button-row">
                      <button
                        type="button"
                        className="button button--accent"
                        disabled={busy}
                        onClick={() =>
                          void move(
                            option.slug,
                            option.when === 'now' ? `You are a ${option.name} member now.` : null,
                          )
                        }
                      >
                        {busy ? 'Moving…' : `Move to ${option.name}`}
                      </button>
                      <button type="button" className="button" onClick={() => setConfirming(null)}>
                        Stay {tier.name}
                      </button>
                    </p>
                  </>
                ) : (
                  <p>
                    <button
                      type="button"
                      className="button button--outline"
                      onClick={() => setConfirming(option.slug)}
                    >
                      {option.when === 'now' ? 'Move up' : 'Move down'} to {option.name}
                    </button>
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? '' : 'form-error'}>
          {outcome.text}
        </p>
      )}
    </section>
  );
}
