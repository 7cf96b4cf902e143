import type { FocusEvent, ReactNode } from 'react';
import { Link } from '../../../lib/router';
import { sectionPath, type SiteSection } from '../../../../../contract/sections';
import { useSiteNavigation } from '../../../lib/site-navigation';
import type { HomeHighlights } from '../types';
import { ArticleCard } from './article-card';
import { CampaignCard } from './campaign-card';
import { ContentCard } from './content-card';
import { StatusBadge } from './status-badge';

/**
 * The home page's newest items of each section in the menu, in the menu's order, each row leading
 * to the whole section; a section of articles with none yet has no row.
 */
export function SectionHighlights({ highlights }: { highlights: HomeHighlights }) {
  const { sections } = useSiteNavigation();
  return (
    <>
      {sections
        .filter((section) => section.inMenu)
        .map((section) => (
          <SectionRow key={section.id} section={section} highlights={highlights} />
        ))}
    </>
  );
}

function SectionRow({ section, highlights }: { section: SiteSection; highlights: HomeHighlights }) {
  const row = {
    id: `latest-${section.slug}`,
    title: section.name,
    to: sectionPath(section),
  };
  switch (section.lists) {
    case 'articles': {
      const articles = highlights.articles[section.name] ?? [];
      if (articles.length === 0) return null;
      return (
        <HighlightRow {...row} more={`All ${section.name} articles`}>
          {articles.map((article) => (
            <ArticleCard key={article.id} article={article} headingLevel={3} />
          ))}
        </HighlightRow>
      );
    }
    case 'campaigns':
      return (
        <HighlightRow {...row} more="All campaigns">
          {highlights.campaigns.map((campaign) => (
            <CampaignCard key={campaign.id} campaign={campaign} headingLevel={3} />
          ))}
        </HighlightRow>
      );
    case 'boycotts':
      return (
        <HighlightRow {...row} more="All boycotts">
          {highlights.boycotts.map((boycott) => (
            <ContentCard
              key={boycott.id}
              title={boycott.title}
              href={`${row.to}#${boycott.slug}`}
              image={boycott.heroImage}
              tone={section.color}
              eyebrow={<StatusBadge status={boycott.status} />}
              summary={boycott.reason}
              headingLevel={3}
            />
          ))}
        </HighlightRow>
      );
    case 'resources':
      return (
        <HighlightRow {...row} more="All free resources">
          {highlights.resourceGroups.map((group) => (
            <ContentCard
              key={group.id}
              title={group.category}
              href={`${row.to}#${group.slug}`}
              image={group.heroImage}
              tone={section.color}
              eyebrow={`${group.resourceCount} free resources`}
              summary={group.description}
              headingLevel={3}
            />
          ))}
        </HighlightRow>
      );
  }
}

function HighlightRow({
  id,
  title,
  to,
  more,
  children,
}: {
  id: string;
  title: string;
  to: string;
  more: string;
  children: ReactNode[];
}) {
  return (
    <section className="highlights" aria-labelledby={id}>
      <div className="highlights__head">
        <h2 id={id}>{title}</h2>
        <Link className="highlights__more" to={to}>
          {more} <span aria-hidden="true">→</span>
        </Link>
      </div>
      <ul className="card-grid" role="list" onFocus={revealFocusedCard}>
        {children.map((child, index) => (
          <li key={index}>{child}</li>
        ))}
      </ul>
    </section>
  );
}

/**
 * On a phone each row scrolls sideways, and the browser scrolls a focused link only until the link's
 * text shows, which can leave its card mostly outside the row: bring the whole card in instead.
 */
function revealFocusedCard(event: FocusEvent<HTMLUListElement>) {
  const card = event.target.closest('li');
  if (card && event.currentTarget.scrollWidth > event.currentTarget.clientWidth) {
    card.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}
