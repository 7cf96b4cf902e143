import type { SubscriptionPlanId } from '../../../../contract/plan-rules';
import type { Static } from 'typebox';
import type {
  AccountDeleteBodySchema,
  AccountSession,
  CredentialsBodySchema,
  EmailChangeBodySchema,
  EmailCodeBodySchema,
  EmailLinkBodySchema,
  EmailLinkConfirmBodySchema,
  EmailTokenBodySchema,
  EmailChangeConfirmBodySchema,
  MailedLinkPreview,
  Payment,
  PasswordChangeBodySchema,
  PasswordResetBodySchema,
  PasswordResetConfirmBodySchema,
  RecentSignIn,
  RegisterBodySchema,
  RegisterConfirmBodySchema,
  User,
} from '../../../../contract/api';
import type { GiftPreview } from '../../../../contract/gifts';
import type { MemberPodcastFeed, MemberPodcastFeeds } from '../../../../contract/podcast-feeds';
import { PODCAST_FEEDS_API } from '../../../../contract/podcasts';
import type { MySeats } from '../../../../contract/seats';
import type { AccountTier, TierMoveBody, TierMoveResponse } from '../../../../contract/tier-moves';
import { apiRequest } from '../../lib/api-client';

// One function per endpoint; request bodies typed by the contract's schemas (type-only imports:
// nothing of the schemas reaches the bundle).

type UserAnswer = Promise<{ user: User }>;
const post = <Body>(path: string, body?: Body): UserAnswer =>
  apiRequest(path, { method: 'POST', body });

/**
 * Mails a link that finishes the registration (the answer is the same for a taken address). The
 * password is chosen on the page the link opens, by whoever owns the address.
 */
export const register = (email: string): Promise<{ message: string }> =>
  apiRequest('/api/auth/register', {
    method: 'POST',
    body: { email } satisfies Static<typeof RegisterBodySchema>,
  });

/** What a mailed link's page shows before its button: the address, and whether to ask. */
const previewLink =
  (path: string) =>
  (token: string, signal?: AbortSignal): Promise<MailedLinkPreview> =>
    apiRequest(path, {
      method: 'POST',
      body: { token } satisfies Static<typeof EmailTokenBodySchema>,
      signal,
    });

export const previewRegistration = previewLink('/api/auth/register/preview');

export const confirmRegistration = (
  token: string,
  password: string,
  moveMembership: boolean,
): UserAnswer =>
  post<Static<typeof RegisterConfirmBodySchema>>('/api/auth/register/confirm', {
    token,
    password,
    moveMembership,
  });

/** "Email me a sign-in link": a link and a 6-digit code, for any address. */
export const requestSignInLink = (email: string): Promise<{ message: string }> =>
  apiRequest('/api/auth/email-link', {
    method: 'POST',
    body: { email } satisfies Static<typeof EmailLinkBodySchema>,
  });

export const previewSignInLink = previewLink('/api/auth/email-link/preview');

export const confirmSignInLink = (token: string, moveMembership: boolean): UserAnswer =>
  post<Static<typeof EmailLinkConfirmBodySchema>>('/api/auth/email-link/confirm', {
    token,
    moveMembership,
  });

export const confirmSignInCode = (email: string, code: string): UserAnswer =>
  post<Static<typeof EmailCodeBodySchema>>('/api/auth/email-code/confirm', { email, code });

export const signIn = (email: string, password: string): UserAnswer =>
  post<Static<typeof CredentialsBodySchema>>('/api/auth/login', { email, password });

export const signOut = (): UserAnswer => post('/api/auth/logout');

export const requestPasswordReset = (email: string): Promise<{ message: string }> =>
  apiRequest('/api/auth/password-reset', {
    method: 'POST',
    body: { email } satisfies Static<typeof PasswordResetBodySchema>,
  });

export const resetPassword = (token: string, password: string): UserAnswer =>
  post<Static<typeof PasswordResetConfirmBodySchema>>('/api/auth/password-reset/confirm', {
    token,
    password,
  });

/** What changing the address or the password, or deleting the account, needs here. */
export const getRecentSignIn = (signal?: AbortSignal): Promise<RecentSignIn> =>
  apiRequest('/api/account/recent-sign-in', { signal });

// `undefined` for the current password: a recent sign-in by link, code or passkey stands in.
export const changePassword = (
  currentPassword: string | undefined,
  newPassword: string,
): UserAnswer =>
  post<Static<typeof PasswordChangeBodySchema>>('/api/auth/password', {
    currentPassword,
    newPassword,
  });

/** Mails a confirmation link to the new address; nothing changes until it is confirmed. */
export const changeEmail = (
  email: string,
  password: string | undefined,
): Promise<{ message: string }> =>
  apiRequest('/api/account/email', {
    method: 'POST',
    body: { email, password } satisfies Static<typeof EmailChangeBodySchema>,
  });

export const confirmEmailChange = (token: string): Promise<{ message: string }> =>
  apiRequest('/api/account/email/confirm', {
    method: 'POST',
    body: { token } satisfies Static<typeof EmailChangeConfirmBodySchema>,
  });

export const deleteAccount = (password: string | undefined): UserAnswer =>
  post<Static<typeof AccountDeleteBodySchema>>('/api/account/delete', { password });

export const openBillingPortal = (): Promise<{ url: string }> =>
  apiRequest('/api/billing-portal', { method: 'POST' });

/** Moves the member's subscription to the other plan (monthly ↔ yearly); answers the member. */
export const switchPlan = (plan: SubscriptionPlanId): Promise<{ user: User }> =>
  apiRequest('/api/account/plan', { method: 'POST', body: { plan } });

/** The member's tier, what it renews as, and the tiers to move to. */
export const getAccountTier = (signal?: AbortSignal): Promise<AccountTier> =>
  apiRequest('/api/account/tier', { signal });

/** Moves the member's subscription to the tier `slug` names (now, or from the renewal). */
export const moveTier = (tier: string): Promise<TierMoveResponse> =>
  apiRequest('/api/account/tier', {
    method: 'POST',
    body: { tier } satisfies TierMoveBody,
  });

export const listPayments = (signal?: AbortSignal): Promise<{ payments: Payment[] }> =>
  apiRequest('/api/account/payments', { signal });

type SessionsAnswer = Promise<{ sessions: AccountSession[] }>;

export const listSessions = (signal?: AbortSignal): SessionsAnswer =>
  apiRequest('/api/account/sessions', { signal });

export const endSession = (id: string): SessionsAnswer =>
  apiRequest(`/api/account/sessions/${encodeURIComponent(id)}/end`, { method: 'POST' });

export const endOtherSessions = (): SessionsAnswer =>
  apiRequest('/api/account/sessions/end-others', { method: 'POST' });

/** A gift's claim page: who gave it and whether it is claimed, then the claim. */
export const previewGift = (token: string, signal?: AbortSignal) =>
  apiRequest<GiftPreview>('/api/gifts/preview', { method: 'POST', body: { token }, signal });

export const claimGift = (token: string): UserAnswer => post('/api/gifts/claim', { token });

/** The seats the member funded (with how many are in use) and their own requests. */
export const listMySeats = (signal?: AbortSignal): Promise<MySeats> =>
  apiRequest('/api/seats/mine', { signal });

/** The site's podcasts, each with the member's private feed address once made. */
export const listPodcastFeeds = (signal?: AbortSignal): Promise<MemberPodcastFeeds> =>
  apiRequest(PODCAST_FEEDS_API, { signal });

/** A new private feed address for the podcast; the one it had stops working. */
export const makePodcastFeed = (sectionId: number): Promise<{ feed: MemberPodcastFeed }> =>
  apiRequest(`${PODCAST_FEEDS_API}/${sectionId}`, { method: 'POST' });
