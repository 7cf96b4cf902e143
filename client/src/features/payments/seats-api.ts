import type { Static } from 'typebox';
import type {
  MySeats,
  SeatFundingBodySchema,
  SeatPaymentSchema,
  SeatPool,
  SeatRequest,
} from '../../../../contract/seats';
import { apiRequest } from '../../lib/api-client';

// Solidarity seats; bodies typed by the contract's schemas (type-only imports).

export const fundSeats = (body: Static<typeof SeatFundingBodySchema>) =>
  apiRequest<Static<typeof SeatPaymentSchema>>('/api/seats', { method: 'POST', body });

export const readSeatPool = (signal?: AbortSignal) =>
  apiRequest<SeatPool>('/api/seats/pool', { signal });

export const readMySeats = (signal?: AbortSignal) =>
  apiRequest<MySeats>('/api/seats/mine', { signal });

export const askForSeat = (note: string) =>
  apiRequest<{ request: SeatRequest }>('/api/seats/requests', { method: 'POST', body: { note } });

export const withdrawSeatRequest = () =>
  apiRequest<{ withdrawn: boolean }>('/api/seats/requests/mine', { method: 'DELETE' });
