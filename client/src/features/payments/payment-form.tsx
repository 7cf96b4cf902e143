import { PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useState, type FormEvent } from 'react';
import { UNEXPECTED_ERROR_MESSAGE } from '../../lib/payment-messages';

/**
 * The seed's payment form: Stripe's Payment Element (tabs layout) and a "Pay now" button that is
 * disabled, with a spinner, while submitting or while Stripe is not ready. Stripe redirects to
 * `returnUrl` after confirming; errors it reports here are shown as the seed showed them.
 */
export function PaymentForm({ returnUrl }: { returnUrl: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setSubmitting(true);
    setMessage(null);
    const { error } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: returnUrl },
    });
    // Reached only when confirmation failed: success leaves the page for the return address.
    if (error.type === 'card_error' || error.type === 'validation_error') {
      setMessage(error.message ?? UNEXPECTED_ERROR_MESSAGE);
    } else {
      setMessage(UNEXPECTED_ERROR_MESSAGE);
    }
    setSubmitting(false);
  }

  const disabled = submitting || !stripe || !elements || !ready;
  return (
    <form id="payment-form" className="payment-form" onSubmit={(event) => void submit(event)}>
      <PaymentElement
        id="payment-element"
        options={{ layout: 'tabs' }}
        onReady={() => setReady(true)}
      />
      <button
        className="button button--accent payment-form__submit"
        disabled={disabled}
        id="submit"
      >
        {submitting ? (
          <span className="spinner" role="status" aria-label="Processing payment" />
        ) : (
          'Pay now'
        )}
      </button>
      {message && (
        <div id="payment-message" className="payment-form__message" role="alert">
          {message}
        </div>
      )}
    </form>
  );
}
