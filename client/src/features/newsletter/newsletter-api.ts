import type { Static } from 'typebox';
import type { MessageResponseSchema } from '../../../../contract/api';
import type {
  NewsletterIssueBody,
  NewsletterSubscribeBodySchema,
  NewsletterSubscription,
  NewsletterSubscriptionBodySchema,
  NewsletterTokenBodySchema,
} from '../../../../contract/newsletters';
import { apiRequest } from '../../lib/api-client';

type Message = Promise<Static<typeof MessageResponseSchema>>;

export const subscribe = (email: string): Promise<{ message: string; subscribed: boolean }> =>
  apiRequest('/api/newsletter/subscribe', {
    method: 'POST',
    body: { email } satisfies Static<typeof NewsletterSubscribeBodySchema>,
  });

export const confirmSubscription = (token: string): Message =>
  apiRequest('/api/newsletter/confirm', {
    method: 'POST',
    body: { token } satisfies Static<typeof NewsletterTokenBodySchema>,
  });

export const unsubscribe = (token: string): Message =>
  apiRequest(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    body: {},
  });

export const resubscribe = (token: string): Message =>
  apiRequest('/api/newsletter/resubscribe', {
    method: 'POST',
    body: { token } satisfies Static<typeof NewsletterTokenBodySchema>,
  });

export const getSubscription = (): Promise<NewsletterSubscription> =>
  apiRequest('/api/newsletter/subscription');

export const setSubscription = (subscribed: boolean): Promise<NewsletterSubscription> =>
  apiRequest('/api/newsletter/subscription', {
    method: 'POST',
    body: { subscribed } satisfies Static<typeof NewsletterSubscriptionBodySchema>,
  });

/** A members-only issue's body: members only (ApiError 401/403 for everyone else). */
export const getIssueBody = (slug: string, signal?: AbortSignal): Promise<NewsletterIssueBody> =>
  apiRequest(`/api/newsletter/issues/${encodeURIComponent(slug)}`, { signal });
