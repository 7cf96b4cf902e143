import { Elements } from '@stripe/react-stripe-js';
import { useState, type FormEvent } from 'react';
import {
  GIFT_MESSAGE_MAX,
  GIFT_NAME_MAX,
  GIFT_SEND_AHEAD_DAYS,
} from '../../../../contract/gift-rules';
import { isValidEmail, normalizeEmail } from '../../../../contract/account-rules';
import { FormField } from '../../components/form-field';
import { PageMasthead } from '../../components/page-masthead';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { useDocumentHead } from '../../lib/document-head';
import { PAYMENTS_OFF_MESSAGE } from '../../lib/payment-messages';
import { useSession } from '../../lib/session/session-context';
import { formatPrice, useSiteConfig } from '../../lib/site-config';
import { useSiteName } from '../../lib/site-name';
import { Link } from '../../lib/router';
import { PaymentForm } from './payment-form';
import { getStripe } from './stripe-loader';
import { buyGift, type GiftPayment } from './gift-api';
import { useReturnedPayment } from './use-returned-payment';
import './giving.css';

const DAY_MS = 24 * 3600 * 1000;

function emailProblem(email: string): string | null {
  if (!email.trim()) return 'Enter an email address.';
  if (!isValidEmail(normalizeEmail(email))) {
    return 'Enter a valid email address, like name@example.com.';
  }
  return null;
}

/** A day as the date input writes it (`YYYY-MM-DD`), in the visitor's own time zone. */
function dayOf(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

/**
 * When the recipient is mailed: nothing for today (at once, once paid), else 9 in the morning of
 * the chosen day, the visitor's time.
 */
function sendAtOf(day: string): string | undefined {
  if (!day || day <= dayOf(new Date())) return undefined;
  return new Date(`${day}T09:00:00`).toISOString();
}

/** /gift: a year of membership bought for someone else, paid once (docs/payments.md#gifts). */
export default function GiftPage() {
  const siteName = useSiteName();
  useDocumentHead('Give a year', `Give someone a year of ${siteName}, paid once.`);
  const config = useSiteConfig();
  const { user } = useSession();
  const returned = useReturnedPayment(
    config,
    'Thank you: your gift is paid. We mail them the link to claim it on the day you chose, and you a receipt.',
  );
  const [payment, setPayment] = useState<GiftPayment | null>(null);
  const paymentsOn = config?.paymentsEnabled === true && config.stripePublishableKey !== null;
  const year = config?.plans.find((plan) => plan.id === 'early-access');
  const price = formatPrice(
    year?.amountCents ?? config?.priceCents ?? 1200,
    config?.currency ?? 'usd',
  );

  return (
    <>
      <PageMasthead
        eyebrow="Gift"
        title={`Give a year of ${siteName}`}
        lede={`A year of membership for someone else, paid once: ${price}. They get a mail with a link to claim it, on the day you choose.`}
      />
      <div className="page-body account-screen gift">
        {returned ? (
          <p className="panel gift__done" role="status">
            {returned} <Link to={paths.home}>Back to {siteName}</Link>
          </p>
        ) : !config ? null : !paymentsOn ? (
          <p className="payment-form__message">{PAYMENTS_OFF_MESSAGE}</p>
        ) : payment ? (
          <div className="panel">
            <p>
              {price} for a year of {siteName}, for <strong>{payment.recipientEmail}</strong>.{' '}
              <button type="button" className="link-button" onClick={() => setPayment(null)}>
                Change
              </button>
            </p>
            <Elements
              stripe={getStripe(config.stripePublishableKey ?? '')}
              options={{ clientSecret: payment.clientSecret, appearance: { theme: 'stripe' } }}
            >
              <PaymentForm returnUrl={`${config.siteUrl}${paths.gift}`} />
            </Elements>
          </div>
        ) : (
          <GiftForm signedInEmail={user?.email ?? null} onReady={setPayment} />
        )}
      </div>
    </>
  );
}

function GiftForm({
  signedInEmail,
  onReady,
}: {
  signedInEmail: string | null;
  onReady(payment: GiftPayment): void;
}) {
  // The days a gift can be sent on, from the page's opening.
  const [{ today, lastDay }] = useState(() => ({
    today: dayOf(new Date()),
    lastDay: dayOf(new Date(Date.now() + (GIFT_SEND_AHEAD_DAYS - 1) * DAY_MS)),
  }));
  const [recipientEmail, setRecipientEmail] = useState('');
  const [fromName, setFromName] = useState('');
  const [message, setMessage] = useState('');
  const [day, setDay] = useState(today);
  const [buyerEmail, setBuyerEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      recipientEmail: emailProblem(recipientEmail) ?? undefined,
      buyerEmail: signedInEmail ? undefined : (emailProblem(buyerEmail) ?? undefined),
      day:
        day && (day < today || day > lastDay)
          ? 'Choose a day from today on, within a year.'
          : undefined,
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setProblem(null);
    try {
      const sendAt = sendAtOf(day);
      const answer = await buyGift({
        recipientEmail,
        ...(fromName.trim() && { fromName: fromName.trim() }),
        ...(message.trim() && { message: message.trim() }),
        ...(sendAt && { sendAt }),
        ...(!signedInEmail && { buyerEmail }),
      });
      onReady({ ...answer, recipientEmail: recipientEmail.trim().toLowerCase() });
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'Could not reach the server.');
      setBusy(false);
    }
  }

  return (
    <form className="gift__form" noValidate onSubmit={(event) => void submit(event)}>
      <FormField
        label="Their email"
        type="email"
        autoComplete="off"
        value={recipientEmail}
        onChange={(event) => setRecipientEmail(event.target.value)}
        error={errors.recipientEmail}
        hint="Where the link to claim the gift goes."
        required
      />
      <FormField
        label="Your name (optional)"
        type="text"
        autoComplete="name"
        maxLength={GIFT_NAME_MAX}
        value={fromName}
        onChange={(event) => setFromName(event.target.value)}
        hint="How the mail names you. Without it, the gift is from “Someone”."
      />
      <div className="field">
        <label htmlFor="gift-message">Message (optional)</label>
        <textarea
          id="gift-message"
          rows={4}
          maxLength={GIFT_MESSAGE_MAX}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          aria-describedby="gift-message-count"
        />
        <p id="gift-message-count" className="field__hint">
          {message.length} / {GIFT_MESSAGE_MAX}
        </p>
      </div>
      <FormField
        label="Send on"
        type="date"
        min={today}
        max={lastDay}
        value={day}
        onChange={(event) => setDay(event.target.value)}
        error={errors.day}
        hint="Today sends the link as soon as you have paid."
      />
      {signedInEmail ? (
        <p className="field__hint">Your receipt goes to {signedInEmail}.</p>
      ) : (
        <FormField
          label="Your email"
          type="email"
          autoComplete="email"
          value={buyerEmail}
          onChange={(event) => setBuyerEmail(event.target.value)}
          error={errors.buyerEmail}
          hint="For your receipt, and to tell you when they claim it."
          required
        />
      )}
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
      <button className="button button--accent" disabled={busy}>
        {busy ? 'One moment…' : 'Continue to payment'}
      </button>
    </form>
  );
}
