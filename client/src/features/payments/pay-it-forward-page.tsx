import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { isValidEmail, normalizeEmail } from '../../../../contract/account-rules';
import {
  MAX_SEATS_PER_PAYMENT,
  SEAT_NOTE_MAX,
  SEAT_NOTE_MIN,
} from '../../../../contract/seat-rules';
import type { MySeats, SeatPool } from '../../../../contract/seats';
import { FormField } from '../../components/form-field';
import { PageMasthead } from '../../components/page-masthead';
import { paths } from '../../config/paths';
import { describeFailure } from '../../lib/api-client';
import { useDocumentHead } from '../../lib/document-head';
import { PAYMENTS_OFF_MESSAGE } from '../../lib/payment-messages';
import { Link } from '../../lib/router';
import { useSession } from '../../lib/session/session-context';
import { formatPrice, useSiteConfig } from '../../lib/site-config';
import { useSiteName } from '../../lib/site-name';
import {
  GivingForm,
  NoteField,
  PaymentStep,
  SubmitRow,
  useGivenTier,
  useGivingSubmit,
} from './giving-form';
import { askForSeat, fundSeats, readMySeats, readSeatPool, withdrawSeatRequest } from './seats-api';
import { useReturnedPayment } from './use-returned-payment';
import './giving.css';

/** "42 memberships given", once the pool's count has arrived. */
function usePool(version: number): SeatPool | null {
  const [pool, setPool] = useState<SeatPool | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    readSeatPool(controller.signal).then(setPool, () => undefined);
    return () => controller.abort();
  }, [version]);
  return pool;
}

/**
 * /pay-it-forward: solidarity seats (docs/payments.md#solidarity-seats). Readers who can pay fund
 * years for readers who cannot; those ask for one with a short note, and the site's owners grant
 * them.
 */
export default function PayItForwardPage() {
  const siteName = useSiteName();
  useDocumentHead(
    'Pay it forward',
    `Fund a year of ${siteName} for a reader who cannot pay, or ask for one.`,
  );
  const config = useSiteConfig();
  const [version, setVersion] = useState(0);
  const pool = usePool(version);
  const paid = useCallback(() => setVersion((v) => v + 1), []);
  const given = useGivenTier(config);
  const seatPrice =
    given.tiers.length > 0
      ? 'a year of the membership you choose, paid once'
      : `${given.price}, paid once`;

  return (
    <>
      <PageMasthead
        eyebrow="Solidarity seats"
        title="Pay it forward"
        lede={`Readers who can pay fund a year of ${siteName} for readers who cannot. A seat is ${seatPrice}.`}
      />
      <div className="page-body account-screen gift">
        {pool && (pool.given > 0 || pool.available > 0) && (
          <p className="seats__count" role="status">
            <strong>{pool.given}</strong> {pool.given === 1 ? 'membership' : 'memberships'} given
            {pool.available > 0 && `, ${pool.available} more funded and waiting for readers`}.
          </p>
        )}
        <section aria-labelledby="fund-title" className="seats__section">
          <h2 id="fund-title">Fund seats</h2>
          <FundSeats given={given} onPaid={paid} />
        </section>
        <section aria-labelledby="ask-title" className="seats__section" id="ask">
          <h2 id="ask-title">Can’t pay? Ask for a seat</h2>
          <AskForSeat siteName={siteName} />
        </section>
      </div>
    </>
  );
}

function FundSeats({ given, onPaid }: { given: ReturnType<typeof useGivenTier>; onPaid(): void }) {
  const config = useSiteConfig();
  const { user } = useSession();
  const [seats, setSeats] = useState('1');
  const [email, setEmail] = useState('');
  const [payment, setPayment] = useState<{ clientSecret: string; label: string } | null>(null);
  const count = Number(seats);
  const { errors, problem, busy, onSubmit } = useGivingSubmit(
    () => ({
      seats:
        Number.isInteger(count) && count >= 1 && count <= MAX_SEATS_PER_PAYMENT
          ? undefined
          : `Choose from 1 to ${MAX_SEATS_PER_PAYMENT} seats.`,
      email:
        user?.email || isValidEmail(normalizeEmail(email))
          ? undefined
          : 'Enter a valid email address, like name@example.com.',
    }),
    async () => {
      const answer = await fundSeats({
        seats: count,
        ...(!user?.email && { supporterEmail: email }),
        ...(given.tier && { tier: given.tier.slug }),
      });
      const total = formatPrice(answer.amountCents, answer.currency);
      setPayment({
        clientSecret: answer.clientSecret,
        label: `${total} for ${count === 1 ? 'one seat' : `${count} seats`}: ${count === 1 ? 'a year' : `${count} years`}${given.tier ? ` of ${given.tier.name}` : ''} for readers who cannot pay.`,
      });
    },
  );
  const returned = useReturnedPayment(
    config,
    'Thank you: your seats are paid. Each goes to a reader who asks for one; your receipt is on its way.',
  );
  useEffect(() => {
    if (returned) onPaid();
  }, [returned, onPaid]);

  if (!config) return null;
  if (!config.paymentsEnabled || !config.stripePublishableKey) {
    return <p className="payment-form__message">{PAYMENTS_OFF_MESSAGE}</p>;
  }
  if (returned) {
    return (
      <p className="panel gift__done" role="status">
        {returned}
      </p>
    );
  }
  if (payment) {
    return (
      <PaymentStep
        config={config}
        clientSecret={payment.clientSecret}
        returnPath={paths.payItForward}
        onChange={() => setPayment(null)}
      >
        {payment.label}
      </PaymentStep>
    );
  }

  return (
    <GivingForm
      legend="Each seat is a year of"
      given={given}
      submit={{ problem, busy, onSubmit }}
      receipt={{
        signedInEmail: user?.email,
        signedInNote: '; your account shows how many of your seats are in use.',
        hint: 'For your receipt.',
        value: email,
        onChange: setEmail,
        error: errors.email,
      }}
    >
      <FormField
        label="Seats"
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_SEATS_PER_PAYMENT}
        value={seats}
        onChange={(event) => setSeats(event.target.value)}
        error={errors.seats}
        hint={`${given.price} each: every seat is a year for one reader.`}
      />
    </GivingForm>
  );
}

function AskForSeat({ siteName }: { siteName: string }) {
  const { user, status } = useSession();
  const [mine, setMine] = useState<MySeats | null>(null);
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);
  const signedIn = Boolean(user?.email);
  useEffect(() => {
    if (!signedIn) return;
    const controller = new AbortController();
    readMySeats(controller.signal).then(setMine, () => undefined);
    return () => controller.abort();
  }, [signedIn, version]);

  if (status !== 'ready') return null;
  if (user?.isSubscribed) {
    return <p>You are a member: thank you. If you can, fund a seat for someone else.</p>;
  }
  if (!signedIn) {
    return (
      <>
        <p>
          Sign in, or create an account, to ask: a seat is kept on your account, and we mail you
          when it is granted.
        </p>
        <p className="gift__actions">
          <Link
            className="button button--accent"
            to={paths.register}
            state={{ from: paths.payItForward }}
          >
            Create an account
          </Link>
          <Link className="button" to={paths.login} state={{ from: paths.payItForward }}>
            Sign in
          </Link>
        </p>
      </>
    );
  }
  const open = mine?.requests.find((request) => request.state === 'open');
  if (open) {
    return (
      <div className="panel" role="status">
        <p>
          You asked for a seat on {new Date(open.createdAt).toLocaleDateString()}. We mail you when
          it is granted.
        </p>
        <p>
          <button
            type="button"
            className="link-button"
            onClick={() =>
              void withdrawSeatRequest().then(
                () => setVersion((v) => v + 1),
                (error: unknown) => setProblem(describeFailure(error)),
              )
            }
          >
            Withdraw my request
          </button>
        </p>
        {problem && (
          <p role="alert" className="form-error">
            {problem}
          </p>
        )}
      </div>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await askForSeat(note);
      setNote('');
      setVersion((v) => v + 1);
    } catch (error) {
      setProblem(describeFailure(error));
    }
    setBusy(false);
  }

  return (
    <form className="gift__form" noValidate onSubmit={(event) => void submit(event)}>
      <p>
        Tell the people who run {siteName}, in a few words, why a seat would help. Only they read
        it.
      </p>
      <NoteField
        id="seat-note"
        label="Your note"
        minLength={SEAT_NOTE_MIN}
        maxLength={SEAT_NOTE_MAX}
        value={note}
        onChange={setNote}
      />
      <SubmitRow problem={problem} busy={busy} label="Ask for a seat" busyLabel="Sending…" />
    </form>
  );
}
