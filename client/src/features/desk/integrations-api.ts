import { DESK_API } from '../../../../contract/constants';
import type {
  CreatedIntegration,
  IntegrationCreate,
  IntegrationList,
} from '../../../../contract/integrations-api';
import { apiRequest } from '../../lib/api-client';

// The desk's integrations: keys to Ghost's APIs (server/src/routes/desk/integrations.ts).

export const fetchIntegrations = (signal?: AbortSignal): Promise<IntegrationList> =>
  apiRequest(`${DESK_API}/integrations`, { signal });

export const createIntegration = (
  body: IntegrationCreate,
): Promise<{ integration: CreatedIntegration }> =>
  apiRequest(`${DESK_API}/integrations`, { method: 'POST', body });

export const deleteIntegration = (id: string): Promise<void> =>
  apiRequest(`${DESK_API}/integrations/${id}`, { method: 'DELETE' });
