import { useEffect, useState } from 'react';
import type { SiteConfig } from '../../../contract/api';
import { apiRequest } from './api-client';

let pending: Promise<SiteConfig> | undefined;

/** Fetched once per page load and shared; a failure is retried on the next call. */
export function loadSiteConfig(): Promise<SiteConfig> {
  pending ??= apiRequest<SiteConfig>('/api/config').catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

/** The site config, or null until it has arrived. */
export function useSiteConfig(): SiteConfig | null {
  const [config, setConfig] = useState<SiteConfig | null>(null);
  useEffect(() => {
    let active = true;
    loadSiteConfig().then(
      (value) => active && setConfig(value),
      () => {}, // the site stays readable; payment buttons say what went wrong when used
    );
    return () => {
      active = false;
    };
  }, []);
  return config;
}

/** "$12", "$1.50": a price as readers read it. */
export { formatMoney as formatPrice } from '../../../contract/plan-rules';
