import { ConfirmByButton } from '../../components/confirm-by-button';
import { PageMasthead } from '../../components/page-masthead';
import { useDocumentHead } from '../../lib/document-head';
import { useTokenFromAddress } from '../../lib/use-token-from-address';
import { confirmSubscription } from './newsletter-api';
import './newsletter.css';

/** /newsletter/confirm#token=… (the link in the confirmation mail). */
export default function ConfirmSubscriptionPage() {
  useDocumentHead('Confirm your subscription', 'Confirm your subscription to the newsletter.');
  const token = useTokenFromAddress();
  return (
    <>
      <PageMasthead eyebrow="Newsletter" title="Confirm your subscription" />
      <section className="page-body newsletter-screen">
        <ConfirmByButton
          token={token}
          prompt="Press the button to start getting the newsletter at this address."
          button="Confirm my subscription"
          confirm={confirmSubscription}
          noToken={
            <p>This page needs the link from the confirmation mail. Sign up again for a new one.</p>
          }
        />
      </section>
    </>
  );
}
