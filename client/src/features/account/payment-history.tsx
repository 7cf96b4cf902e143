import { useEffect, useState } from 'react';
import { describeFailure } from '../../lib/api-client';
import { formatDate, formatMoney } from '../../lib/format-date';
import type { Payment } from '../../../../contract/api';
import { listPayments } from './account-api';

/** What a comp is called wherever the member sees it: time the site gave, nothing paid. */
export const COMP_LABEL = 'Free membership (comp)';

/** What a payment was for: one year paid once, or a monthly or yearly subscription's invoice. */
const kindOf = (payment: Payment) =>
  payment.trial
    ? 'Free trial'
    : payment.kind === 'one-time'
      ? 'One year, paid once'
      : payment.interval === 'month'
        ? 'Monthly subscription'
        : 'Yearly subscription';

/** The plan of the member's newest subscription payment: "monthly", "yearly", or null. */
export function subscriptionPlanWord(payments: readonly Payment[] | null): string | null {
  const latest = payments?.find((payment) => payment.kind === 'subscription-invoice');
  if (!latest?.interval) return null;
  return latest.interval === 'month' ? 'monthly' : 'yearly';
}

const STATE: Record<Payment['state'], string> = {
  active: 'Paid',
  suspended: 'Disputed: on hold',
  refunded: 'Refunded',
  revoked: 'Reversed',
};

/** A gift's state, as its recipient sees it: nothing was paid by them. */
const GIFT_STATE: Record<Payment['state'], string> = {
  active: 'Gift',
  suspended: 'Gift: on hold',
  refunded: 'Refunded to the giver',
  revoked: 'Reversed',
};

export interface PaymentsState {
  payments: Payment[] | null;
  /** The comp that gives the member's access as the payments arrived, if one does. */
  runningComp: Payment | null;
  problem: string | null;
}

/** The member's payments (GET /api/account/payments), loaded once, and again for each `version`. */
export function usePayments(version = 0): PaymentsState {
  const [state, setState] = useState<PaymentsState>({
    payments: null,
    runningComp: null,
    problem: null,
  });
  useEffect(() => {
    const controller = new AbortController();
    listPayments(controller.signal).then(
      (answer) =>
        setState({
          payments: answer.payments,
          runningComp: runningComp(answer.payments, Date.now()),
          problem: null,
        }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const problem = describeFailure(error, 'Could not load your payments.');
        setState({ payments: null, runningComp: null, problem });
      },
    );
    return () => controller.abort();
  }, [version]);
  return state;
}

/** The comp that gives the member's access at `now`, if one does. */
function runningComp(payments: Payment[], now: number): Payment | null {
  return (
    payments.find(
      (payment) =>
        payment.kind === 'comp' &&
        payment.state === 'active' &&
        payment.covers !== null &&
        Date.parse(payment.covers.from) <= now &&
        now < Date.parse(payment.covers.until),
    ) ?? null
  );
}

/** The member's payments, newest first, and the time each one covers. */
export function PaymentHistory({ payments, problem }: PaymentsState) {
  if (problem) {
    return (
      <p role="alert" className="form-error">
        {problem}
      </p>
    );
  }
  if (!payments || payments.length === 0) return null;
  return (
    <div className="payments" aria-labelledby="payments-title">
      <h3 id="payments-title">Payments</h3>
      <ul className="payments__list">
        {payments.map((payment) => (
          <li key={payment.id} className={`payment payment--${payment.state}`}>
            {payment.kind === 'comp' ? (
              <>
                <span className="payment__what">
                  {COMP_LABEL}, given on {formatDate(payment.paidAt)}
                </span>
                <span className="payment__state">Free</span>
              </>
            ) : payment.kind === 'gift' ? (
              <>
                <span className="payment__what">A year, given to you as a gift</span>
                <span className="payment__state">{GIFT_STATE[payment.state]}</span>
              </>
            ) : payment.kind === 'sponsored' ? (
              <>
                <span className="payment__what">
                  A solidarity seat: a year a reader paid for, granted on{' '}
                  {formatDate(payment.covers?.from ?? payment.paidAt)}
                </span>
                <span className="payment__state">Given</span>
              </>
            ) : (
              <>
                <span className="payment__what">
                  {kindOf(payment)}: {formatMoney(payment.amountCents, payment.currency)} on{' '}
                  {formatDate(payment.paidAt)}
                </span>
                <span className="payment__state">{STATE[payment.state]}</span>
              </>
            )}
            <span className="payment__covers">
              {payment.covers
                ? `Covers ${formatDate(payment.covers.from)} to ${formatDate(payment.covers.lastDay)}`
                : 'Covers no time'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
