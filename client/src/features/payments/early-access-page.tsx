import { Link } from '../../lib/router';
import { Elements } from '@stripe/react-stripe-js';
import { useCallback } from 'react';
import { MarkdownContent } from '../../components/markdown-content';
import { useScreenCopy, useSiteData } from '../../lib/site-data';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { useSession } from '../../lib/session/session-context';
import type { SiteConfig } from '../../../../contract/api';
import { waitForMembership } from '../../lib/session/wait-for-membership';
import { formatPrice, useSiteConfig } from '../../lib/site-config';
import { MEMBER_BENEFITS } from './early-access';
import { paths } from '../../config/paths';
import { JoinButton } from '../../components/join-button';
import { PAYMENTS_OFF_MESSAGE } from '../../lib/payment-messages';
import { PaymentForm } from './payment-form';
import { usePaymentIntent } from './use-payment-intent';
import { useReturnedPayment } from './use-returned-payment';
import { getStripe } from './stripe-loader';
import { useQueryParamOnce } from '../../lib/use-query-param';
import './early-access.css';

/** /early-access: the original landing screen, with the one-year membership for sale. */
export default function EarlyAccessPage() {
  const siteName = useSiteName();
  const why = useScreenCopy('why', `Why ${siteName}`);
  // The publication's own line (its tagline, from the desk's settings), or none: never ours.
  const tagline = useSiteData().settings?.description ?? '';
  useDocumentHead('Early Access', `Support ${siteName} early: one year of membership for $12.`);
  const config = useSiteConfig();
  const { user, status, refresh } = useSession();
  // The membership itself comes from Stripe's webhook: look for it for a little while.
  const waitForYear = useCallback(
    (signal: AbortSignal) => waitForMembership(refresh, signal),
    [refresh],
  );
  const returnedMessage = useReturnedPayment(config, null, waitForYear);
  const paymentsOn = config?.paymentsEnabled === true && config.stripePublishableKey !== null;
  // A tier's year (`?tier=founder`, from the Join dialog); the default tier's without one.
  const tierSlug = useQueryParamOnce('tier');
  const tier = config?.tiers.find((each) => each.slug === tierSlug) ?? null;
  // The year paid once is a plan an owner may take off sale (the subscriptions stay).
  const onceOnSale = tier
    ? tier.prices.once !== null
    : config?.plans.some((plan) => plan.id === 'early-access') === true;
  // The PaymentIntent carries the visitor's id: ask for it once the session exists.
  // An offer's link (/join?offer=CODE) brings its code here: the year is priced with it.
  const offer = useQueryParamOnce('offer');
  const intent = usePaymentIntent(
    paymentsOn && onceOnSale && status === 'ready' && !user?.isSubscribed && !returnedMessage,
    offer,
    tierSlug,
  );
  const price = config
    ? formatPrice(tier?.prices.once ?? config.priceCents, tier?.currency ?? config.currency)
    : '$12';

  return (
    <div className="early-access">
      <section className="early-access__hero">
        <div className="early-access__inner">
          <h1>Coming Soon!</h1>
          {tagline && <p className="early-access__lede">{tagline}</p>}
          <p className="for-sale" hidden={config !== null && !paymentsOn}>
            Join today:{' '}
            <JoinButton
              className="link-button"
              offer={offer ?? undefined}
              {...(tier && { tiers: [tier.slug] })}
            >
              {tier ? `${tier.name}: ` : ''}
              {price} for your first year
            </JoinButton>
          </p>
          {/* The space the payment form takes, kept from the first paint: what the server learns
              later (the configuration, the visitor, Stripe's form) never pushes the page down. */}
          <div className="early-access__payment" id="payment">
            {returnedMessage && (
              <p id="payment-message" className="payment-form__message" role="status">
                {returnedMessage}
              </p>
            )}
            {user?.isSubscribed ? (
              <p className="early-access__member">
                You are a member. Thank you for supporting {siteName}!
              </p>
            ) : (
              !returnedMessage &&
              config && (
                <PaymentArea
                  config={config}
                  intent={intent}
                  paymentsOn={paymentsOn}
                  onceOnSale={onceOnSale}
                />
              )
            )}
          </div>
          <p className="early-access__gift for-sale" hidden={config !== null && !paymentsOn}>
            Or <Link to={paths.gift}>give a year to someone else</Link>, or{' '}
            <Link to={paths.payItForward}>pay it forward</Link> for a reader who cannot pay.
          </p>
          {/* The seed's "Privacy policy / Terms of use" line, as links; the site footer has them too. */}
          <p className="early-access__policies">
            <Link to={paths.privacy}>Privacy policy</Link>
            <span aria-hidden="true"> / </span>
            <Link to={paths.terms}>Terms of use</Link>
            <span aria-hidden="true"> / </span>
            <Link to={paths.refunds}>Refunds</Link>
          </p>
        </div>
      </section>

      <section className="benefits" aria-labelledby="benefits-title">
        <h2 id="benefits-title">What members get</h2>
        <ul className="benefits__list">
          {MEMBER_BENEFITS.map((benefit) => (
            <li key={benefit.text}>
              {benefit.to ? <Link to={benefit.to}>{benefit.text}</Link> : benefit.text}
            </li>
          ))}
        </ul>
      </section>

      <section className="why prose" aria-labelledby="why-title">
        <h2 id="why-title">{why.title}</h2>
        <MarkdownContent blocks={why.body.children} />
      </section>
    </div>
  );
}

function PaymentArea({
  config,
  intent,
  paymentsOn,
  onceOnSale,
}: {
  config: SiteConfig;
  intent: ReturnType<typeof usePaymentIntent>;
  paymentsOn: boolean;
  /** Whether the year paid once (of the tier the page is for) is on sale. */
  onceOnSale: boolean;
}) {
  if (!paymentsOn || !config.stripePublishableKey) {
    return <p className="payment-form__message">{PAYMENTS_OFF_MESSAGE}</p>;
  }
  if (intent.kind === 'member') return <p>You are already a member: there is nothing to pay.</p>;
  if (!onceOnSale) {
    return (
      <p className="payment-form__message">
        The year paid once is not on sale now.{' '}
        <JoinButton className="link-button">Join monthly or yearly</JoinButton>
      </p>
    );
  }
  if (intent.kind === 'unavailable')
    return (
      <p className="payment-form__message" role="alert">
        {intent.message}
        {intent.offerRefused && (
          <>
            {' '}
            {/* A new page load: the code in this address is read once, as the page opens. */}
            <a href={paths.earlyAccess}>Pay the full price instead</a>
          </>
        )}
      </p>
    );
  if (intent.kind === 'loading') return null; // the form appears once the client secret arrives
  const discounted =
    intent.amountCents !== undefined &&
    intent.fullPriceCents !== undefined &&
    intent.amountCents < intent.fullPriceCents;
  return (
    <>
      {discounted && (
        <p className="payment-form__message" role="status">
          With your code: {formatPrice(intent.amountCents ?? 0, config.currency)} for your first
          year, instead of {formatPrice(intent.fullPriceCents ?? 0, config.currency)}.
        </p>
      )}
      <Elements
        stripe={getStripe(config.stripePublishableKey)}
        options={{ clientSecret: intent.clientSecret, appearance: { theme: 'stripe' } }}
      >
        <PaymentForm returnUrl={`${config.siteUrl}/early-access`} />
      </Elements>
    </>
  );
}
