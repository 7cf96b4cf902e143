import { NavLink } from '../../lib/router';
import { ExternalLink } from '../../components/external-link';
import type { SiteLink } from '../../../../contract/sections';

/**
 * A link of the publisher's navigation (contract/sections.ts): a path of the site in the app's
 * router, an address elsewhere in a new tab.
 */
export function NavigationLink({ link, className }: { link: SiteLink; className?: string }) {
  if (!link.address.startsWith('/')) {
    return (
      <ExternalLink href={link.address} className={className}>
        {link.label}
      </ExternalLink>
    );
  }
  return (
    <NavLink to={link.address} className={className}>
      {link.label}
    </NavLink>
  );
}
