import type { FocusEvent, ReactNode } from 'react';
import { Link } from '../../../lib/router';
import { paths } from '../../../config/paths';
import type { HomeHighlights } from '../types';
import { ArticleCard } from './article-card';
import { CampaignCard } from './campaign-card';
import { ContentCard } from './content-card';
import { StatusBadge } from './status-badge';

/** The home page's newest items of each section, each row leading to the whole section. */
export function SectionHighlights({ highlights }: { highlights: HomeHighlights }) {
  return (
    <>
      <HighlightRow id="latest-health" title="Health" to={paths.health} more="All Health articles">
        {highlights.health.map((article) => (
          <ArticleCard key={article.id} article={article} headingLevel={3} />
        ))}
      </HighlightRow>
      <HighlightRow id="latest-wealth" title="Wealth" to={paths.wealth} more="All Wealth articles">
        {highlights.wealth.map((article) => (
          <ArticleCard key={article.id} article={article} headingLevel={3} />
        ))}
      </HighlightRow>
      <HighlightRow
        id="latest-direct-action"
        title="Direct Action"
        to={paths.directAction}
        more="All campaigns"
      >
        {highlights.campaigns.map((campaign) => (
          <CampaignCard key={campaign.id} campaign={campaign} headingLevel={3} />
        ))}
      </HighlightRow>
      <HighlightRow
        id="latest-collective"
        title="Collective Action"
        to={paths.collective}
        more="All boycotts"
      >
        {highlights.boycotts.map((boycott) => (
          <ContentCard
            key={boycott.id}
            title={boycott.title}
            href={`${paths.collective}#${boycott.slug}`}
            image={boycott.heroImage}
            tone="collective"
            eyebrow={<StatusBadge status={boycott.status} />}
            summary={boycott.reason}
            headingLevel={3}
          />
        ))}
      </HighlightRow>
      <HighlightRow
        id="latest-empowerment"
        title="Empowerment"
        to={paths.empowerment}
        more="All free resources"
      >
        {highlights.resourceGroups.map((group) => (
          <ContentCard
            key={group.id}
            title={group.category}
            href={`${paths.empowerment}#${group.slug}`}
            image={group.heroImage}
            tone="empowerment"
            eyebrow={`${group.resourceCount} free resources`}
            summary={group.description}
            headingLevel={3}
          />
        ))}
      </HighlightRow>
    </>
  );
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
