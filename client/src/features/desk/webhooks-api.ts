import { DESK_API } from '../../../../contract/constants';
import type { DeskWebhook, NewWebhookBody } from '../../../../contract/webhooks';
import { apiRequest } from '../../lib/api-client';

// An integration's webhooks out (server/src/routes/desk/webhooks.ts, docs/ghost-api.md#webhooks).

export const fetchWebhooks = (
  integrationId: string,
  signal?: AbortSignal,
): Promise<{ webhooks: DeskWebhook[] }> =>
  apiRequest(`${DESK_API}/integrations/${integrationId}/webhooks`, { signal });

export const addWebhook = (
  integrationId: string,
  body: NewWebhookBody,
): Promise<{ webhook: DeskWebhook }> =>
  apiRequest(`${DESK_API}/integrations/${integrationId}/webhooks`, { method: 'POST', body });

export const removeWebhook = (integrationId: string, webhookId: string): Promise<void> =>
  apiRequest(`${DESK_API}/integrations/${integrationId}/webhooks/${webhookId}`, {
    method: 'DELETE',
  });
