/** Texts kept exactly as the original site gave them. */
export const PAYMENT_STATUS_MESSAGES: Record<string, string> = {
  succeeded: 'Payment succeeded!',
  processing: 'Your payment is processing.',
  requires_payment_method: 'Your payment was not successful, please try again.',
};
export const OTHER_STATUS_MESSAGE = 'Something went wrong.';
export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred.';

export const PAYMENTS_OFF_MESSAGE = 'Payments are not configured on this site yet.';

export function paymentStatusMessage(status: string): string {
  return PAYMENT_STATUS_MESSAGES[status] ?? OTHER_STATUS_MESSAGE;
}
