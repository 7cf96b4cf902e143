import { apiRequest } from '../../lib/api-client';
import type { User } from '../../lib/session/user';

type UserAnswer = Promise<{ user: User }>;

export const register = (email: string, password: string): UserAnswer =>
  apiRequest('/api/auth/register', { method: 'POST', body: { email, password } });

export const signIn = (email: string, password: string): UserAnswer =>
  apiRequest('/api/auth/login', { method: 'POST', body: { email, password } });

export const signOut = (): UserAnswer => apiRequest('/api/auth/logout', { method: 'POST' });

export const requestPasswordReset = (email: string): Promise<{ message: string }> =>
  apiRequest('/api/auth/password-reset', { method: 'POST', body: { email } });

export const resetPassword = (token: string, password: string): UserAnswer =>
  apiRequest('/api/auth/password-reset/confirm', { method: 'POST', body: { token, password } });

export const changePassword = (currentPassword: string, newPassword: string): UserAnswer =>
  apiRequest('/api/auth/password', { method: 'POST', body: { currentPassword, newPassword } });

export const changeEmail = (email: string, password: string): UserAnswer =>
  apiRequest('/api/account/email', { method: 'POST', body: { email, password } });

export const deleteAccount = (password: string): UserAnswer =>
  apiRequest('/api/account/delete', { method: 'POST', body: { password } });

export const openBillingPortal = (): Promise<{ url: string }> =>
  apiRequest('/api/billing-portal', { method: 'POST' });

export interface Payment {
  id: string;
  kind: 'one-time' | 'subscription-invoice' | 'comp';
  amountCents: number;
  currency: string;
  paidAt: string;
  state: 'active' | 'suspended' | 'refunded' | 'revoked';
  covers: { from: string; until: string } | null;
}

export const listPayments = (signal?: AbortSignal): Promise<{ payments: Payment[] }> =>
  apiRequest('/api/account/payments', { signal });
