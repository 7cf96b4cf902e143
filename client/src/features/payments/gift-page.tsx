import { useState } from 'react';
import {
  GIFT_MESSAGE_MAX,
  GIFT_NAME_MAX,
  GIFT_SEND_AHEAD_DAYS,
} from '../../../../contract/gift-rules';
import { isValidEmail, normalizeEmail } from '../../../../contract/account-rules';
import { FormField } from '../../components/form-field';
import { PageMasthead } from '../../components/page-masthead';
import { paths } from '../../config/paths';
import { useDocumentHead } from '../../lib/document-head';
import { PAYMENTS_OFF_MESSAGE } from '../../lib/payment-messages';
import { useSession } from '../../lib/session/session-context';
import { formatPrice, useSiteConfig } from '../../lib/site-config';
import { useSiteName } from '../../lib/site-name';
import { Link } from '../../lib/router';
import { buyGift, type GiftPayment } from './gift-api';
import { GivingForm, NoteField, PaymentStep, useGivenTier, useGivingSubmit } from './giving-form';
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
  const given = useGivenTier(config);
  const paidOnce =
    given.tiers.length > 0
      ? 'paid once, at the price of the membership you choose'
      : `paid once: ${given.price}`;

  return (
    <>
      <PageMasthead
        eyebrow="Gift"
        title={`Give a year of ${siteName}`}
        lede={`A year of membership for someone else, ${paidOnce}. They get a mail with a link to claim it, on the day you choose.`}
      />
      <div className="page-body account-screen gift">
        {returned ? (
          <p className="panel gift__done" role="status">
            {returned} <Link to={paths.home}>Back to {siteName}</Link>
          </p>
        ) : !config ? null : !paymentsOn ? (
          <p className="payment-form__message">{PAYMENTS_OFF_MESSAGE}</p>
        ) : payment ? (
          <PaymentStep
            config={config}
            clientSecret={payment.clientSecret}
            returnPath={paths.gift}
            onChange={() => setPayment(null)}
          >
            {formatPrice(payment.amountCents, payment.currency)} for a year of{' '}
            {given.tier ? `${given.tier.name} at ${siteName}` : siteName}, for{' '}
            <strong>{payment.recipientEmail}</strong>.
          </PaymentStep>
        ) : (
          <GiftForm signedInEmail={user?.email ?? null} given={given} onReady={setPayment} />
        )}
      </div>
    </>
  );
}

function GiftForm({
  signedInEmail,
  given,
  onReady,
}: {
  signedInEmail: string | null;
  given: ReturnType<typeof useGivenTier>;
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
  const { errors, problem, busy, onSubmit } = useGivingSubmit(
    () => ({
      recipientEmail: emailProblem(recipientEmail) ?? undefined,
      buyerEmail: signedInEmail ? undefined : (emailProblem(buyerEmail) ?? undefined),
      day:
        day && (day < today || day > lastDay)
          ? 'Choose a day from today on, within a year.'
          : undefined,
    }),
    async () => {
      const sendAt = sendAtOf(day);
      const answer = await buyGift({
        recipientEmail,
        ...(fromName.trim() && { fromName: fromName.trim() }),
        ...(message.trim() && { message: message.trim() }),
        ...(sendAt && { sendAt }),
        ...(!signedInEmail && { buyerEmail }),
        ...(given.tier && { tier: given.tier.slug }),
      });
      onReady({ ...answer, recipientEmail: recipientEmail.trim().toLowerCase() });
    },
  );

  return (
    <GivingForm
      legend="The membership you give"
      given={given}
      submit={{ problem, busy, onSubmit }}
      receipt={{
        signedInEmail,
        hint: 'For your receipt, and to tell you when they claim it.',
        value: buyerEmail,
        onChange: setBuyerEmail,
        error: errors.buyerEmail,
      }}
    >
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
      <NoteField
        id="gift-message"
        label="Message (optional)"
        maxLength={GIFT_MESSAGE_MAX}
        value={message}
        onChange={setMessage}
      />
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
    </GivingForm>
  );
}
