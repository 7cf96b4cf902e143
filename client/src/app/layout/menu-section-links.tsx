import { sectionPath } from '../../../../contract/sections';
import { Link } from '../../lib/router';
import { useSiteNavigation } from '../../lib/site-navigation';

/** The sections of the site's menu, in its order, as a list of links to their pages. */
export function MenuSectionLinks({ className }: { className: string }) {
  const { sections } = useSiteNavigation();
  return (
    <ul className={className}>
      {sections
        .filter((section) => section.inMenu)
        .map((section) => (
          <li key={section.id}>
            <Link to={sectionPath(section)}>{section.name}</Link>
          </li>
        ))}
    </ul>
  );
}
