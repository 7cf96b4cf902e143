import { useEffect, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { formatDate, formatMoney } from '../../lib/format-date';
import type { Payment } from '../../../../contract/api';
import { listPayments } from './account-api';

const KIND: Record<Payment['kind'], string> = {
  'one-time': 'One year, paid once',
  'subscription-invoice': 'Yearly subscription',
  comp: 'Complimentary',
};

const STATE: Record<Payment['state'], string> = {
  active: 'Paid',
  suspended: 'Disputed: on hold',
  refunded: 'Refunded',
  revoked: 'Reversed',
};

/** The member's payments, newest first, and the time each one covers. */
export function PaymentHistory() {
  const [payments, setPayments] = useState<Payment[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    listPayments(controller.signal).then(
      (answer) => setPayments(answer.payments),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setProblem(error instanceof ApiError ? error.message : 'Could not load your payments.');
      },
    );
    return () => controller.abort();
  }, []);

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
            <span className="payment__what">
              {KIND[payment.kind]}: {formatMoney(payment.amountCents, payment.currency)} on{' '}
              {formatDate(payment.paidAt)}
            </span>
            <span className="payment__state">{STATE[payment.state]}</span>
            <span className="payment__covers">
              {payment.covers
                ? `Covers ${formatDate(payment.covers.from)} to ${formatDate(payment.covers.until)}`
                : 'Covers no time'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
