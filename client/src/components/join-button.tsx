import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from '../lib/router';
import { describeFailure } from '../lib/api-client';
import { loadSiteConfig, useSiteConfig } from '../lib/site-config';
import { PAYMENTS_OFF_MESSAGE } from '../lib/payment-messages';
import { openCheckout } from '../lib/open-checkout';
import { paths } from '../config/paths';
import type { SubscriptionPlanId } from '../../../contract/plan-rules';
import type { Choices } from './plan-chooser';
import './join-button.css';

// The tiers and plans to choose from: loaded when a visitor first asks to join.
const PlanChooser = lazy(() => import('./plan-chooser'));

/**
 * Join / Join Now: opens Stripe Checkout in a new tab (members go to the billing portal). With
 * `plan`, for that plan (of `tier`); without, the visitor chooses first (a dialog): a tier among
 * the visible ones that sell something (only `tiers`, when given), then one of its plans; one tier
 * skips the first step, and one plan the dialog. Hidden on a site without payments. Says so
 * plainly when the server cannot start a checkout: under the button in the page's flow, or, with
 * `problemAs="popover"`, in a bubble anchored below it that takes no room, for a button in a bar
 * whose height must not change (the navbar).
 */
export function JoinButton({
  className,
  children,
  problemAs = 'inline',
  plan,
  tier,
  offer,
  tiers,
}: {
  className?: string;
  children: ReactNode;
  problemAs?: 'inline' | 'popover';
  plan?: SubscriptionPlanId;
  /** With `plan`: the tier (by slug) it is a plan of; the default tier when left out. */
  tier?: string;
  /** An offer's code, redeemed at Checkout. */
  offer?: string;
  /**
   * The tiers' slugs to offer (a post's page offers those that unlock it: contract/reading.ts);
   * every visible tier when left out.
   */
  tiers?: readonly string[];
}) {
  const config = useSiteConfig();
  const navigate = useNavigate();
  const { key: locationKey, pathname } = useLocation();
  const [busy, setBusy] = useState(false);
  const [choosing, setChoosing] = useState<Choices | null>(null);
  const [problem, setProblem] = useState<{ message: string; on: string } | null>(null);

  // A message belongs to the page it was shown on: the navbar outlives pages, its message does not.
  const shownProblem = problem?.on === locationKey ? problem.message : null;

  useEffect(() => {
    if (problemAs !== 'popover' || !shownProblem) return;
    const dismissOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setProblem(null);
    };
    window.addEventListener('keydown', dismissOnEscape);
    return () => window.removeEventListener('keydown', dismissOnEscape);
  }, [problemAs, shownProblem]);

  async function join() {
    // Pressed before the configuration arrived: it is on its way (the plans to choose from).
    const known = config ?? (plan ? null : await loadSiteConfig().catch(() => null));
    if (known && !known.paymentsEnabled) {
      setProblem({ message: PAYMENTS_OFF_MESSAGE, on: locationKey });
      return;
    }
    let chosen = plan;
    let ofTier = tier;
    if (!chosen && known) {
      // The tiers' rules come with the first press (the chooser's too): not in the page's script.
      const { joinStep } = await import('../lib/tier-plans');
      const step = joinStep(known, tiers);
      setProblem(null);
      if (step.kind === 'choose') {
        setChoosing(step.choices);
        return;
      }
      if (step.kind === 'early-access') {
        if (pathname !== paths.earlyAccess) navigate(step.path);
        return;
      }
      chosen = step.plan;
      ofTier = step.tier;
    }
    setBusy(true);
    setProblem(null);
    try {
      await openCheckout({
        ...(chosen && { plan: chosen }),
        ...(ofTier && { tier: ofTier }),
        ...(offer && { offer }),
      });
    } catch (error) {
      setProblem({
        message: describeFailure(error, 'Could not reach the server. Please try again.'),
        on: locationKey,
      });
    } finally {
      setBusy(false);
    }
  }

  // Nothing can be bought without payments: the button is hidden (the page's CSS hid it from the
  // first paint), never taken out, so the page the server sent keeps every element it hydrates.
  return (
    <span
      className={`join-button join-button--${problemAs}`}
      hidden={config !== null && !config.paymentsEnabled}
    >
      <button type="button" className={className} onClick={() => void join()} aria-busy={busy}>
        {children}
        <span className="visually-hidden"> (opens checkout in a new tab)</span>
      </button>
      {choosing && (
        <Suspense fallback={null}>
          <PlanChooser
            choices={choosing}
            {...(offer && { offer })}
            onClose={() => setChoosing(null)}
            PlanButton={JoinButton}
          />
        </Suspense>
      )}
      {shownProblem && (
        <span className="join-button__problem" role="alert">
          {shownProblem}
          {problemAs === 'popover' && (
            <button
              type="button"
              className="join-button__dismiss"
              aria-label="Dismiss"
              onClick={() => setProblem(null)}
            >
              ×
            </button>
          )}
        </span>
      )}
    </span>
  );
}
