import type { Static } from 'typebox';
import type { GiftBodySchema, GiftPaymentSchema } from '../../../../contract/gifts';
import { apiRequest } from '../../lib/api-client';

/** The gift's payment: POST /api/gifts; the body typed by the contract (type only). */
export type GiftPayment = Static<typeof GiftPaymentSchema> & { recipientEmail: string };

export const buyGift = (body: Static<typeof GiftBodySchema>) =>
  apiRequest<Static<typeof GiftPaymentSchema>>('/api/gifts', { method: 'POST', body });
