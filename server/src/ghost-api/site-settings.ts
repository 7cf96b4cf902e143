import { sectionPath } from '../../../contract/sections.js';
import type { SiteContent } from '../content/site-content.js';

/**
 * The site's settings in the shape of Ghost's `settings/` (docs/ghost-api.md; its tiers are
 * ghost-tiers.ts's). The navigation is the site's menu: the sections shown in it, then the
 * navbar's links; the secondary navigation is the footer's links.
 */

export interface SettingsSite {
  siteUrl: string;
  siteName: string;
  /** Whether members can pay (Stripe configured). */
  paymentsEnabled: boolean;
}

/** A link of the menu as an address: the site's own paths made absolute. */
const absoluteLink = (siteUrl: string, address: string) =>
  address.startsWith('/') ? `${siteUrl}${address}` : address;

export function ghostSettings(content: SiteContent, site: SettingsSite) {
  const { sections, links } = content.navigation;
  const home = content.pages.get('home');
  const description = home?.description ?? '';
  const linksOf = (placement: 'navbar' | 'footer') =>
    links
      .filter((link) => link.placement === placement)
      .sort((a, b) => a.position - b.position)
      .map((link) => ({ label: link.label, url: absoluteLink(site.siteUrl, link.address) }));
  return {
    title: site.siteName,
    description,
    logo: null,
    icon: `${site.siteUrl}/favicon.svg`,
    accent_color: null,
    cover_image: null,
    facebook: null,
    twitter: null,
    lang: 'en',
    locale: 'en',
    timezone: 'Etc/UTC',
    codeinjection_head: null,
    codeinjection_foot: null,
    navigation: [
      ...sections
        .filter((section) => section.inMenu)
        .sort((a, b) => a.position - b.position)
        .map((section) => ({ label: section.name, url: `${site.siteUrl}${sectionPath(section)}` })),
      ...linksOf('navbar'),
    ],
    secondary_navigation: linksOf('footer'),
    meta_title: null,
    meta_description: description || null,
    og_image: null,
    og_title: null,
    og_description: null,
    twitter_image: null,
    twitter_title: null,
    twitter_description: null,
    // No address is published for the staff: Cohort has no support address setting.
    members_support_address: null,
    members_enabled: true,
    members_invite_only: false,
    allow_self_signup: true,
    paid_members_enabled: site.paymentsEnabled,
    portal_button: false,
    portal_name: true,
    portal_plans: ['free', 'monthly', 'yearly'],
    comments_enabled: 'off',
    recommendations_enabled: false,
    outbound_link_tagging: false,
    url: `${site.siteUrl}/`,
  };
}
