import type { FocusEvent, ReactElement } from 'react';
import { Link } from '../../../lib/router';
import { sectionPath, type SiteSection } from '../../../../../contract/sections';
import type { ListLayout } from '../../../../../contract/site-settings';
import { useSiteNavigation } from '../../../lib/site-navigation';
import type { HomeHighlights } from '../types';
import { ArticleCard } from './article-card';
import { CampaignCard } from './campaign-card';
import { ContentCard } from './content-card';
import { StatusBadge } from './status-badge';

/** One row of the home page: its heading, where "all" of it is, and its cards. */
interface Row {
  id: string;
  title: string;
  all?: { to: string; label: string };
  /** Each card, drawn large when it is the magazine's lead story. */
  cards: { key: number; draw: (lead: boolean) => ReactElement }[];
}

/**
 * The home page's lists (settings.home): the pinned articles first ("Featured"), then the newest
 * items of each section chosen, in the chosen order, each row leading to the whole section; a row
 * with nothing in it is left out. In the magazine layout the first card shown is the lead story.
 */
export function SectionHighlights({
  highlights,
  layout,
}: {
  highlights: HomeHighlights;
  layout: ListLayout;
}) {
  const { sections } = useSiteNavigation();
  const bySlug = new Map(sections.map((section) => [section.slug, section]));
  const featured: Row = {
    id: 'home-featured',
    title: 'Featured',
    cards: highlights.featured.map((article) => ({
      key: article.id,
      draw: (lead) => <ArticleCard article={article} headingLevel={3} featured={lead} />,
    })),
  };
  const rows = [
    featured,
    ...highlights.sections.flatMap((slug) => {
      const section = bySlug.get(slug);
      return section ? [sectionRow(section, highlights)] : [];
    }),
  ].filter((row) => row.cards.length > 0);
  return (
    <>
      {rows.map((row, index) => (
        <HighlightRow key={row.id} row={row} lead={layout === 'magazine' && index === 0} />
      ))}
    </>
  );
}

function sectionRow(section: SiteSection, highlights: HomeHighlights): Row {
  const row = { id: `latest-${section.slug}`, title: section.name };
  const to = sectionPath(section);
  switch (section.lists) {
    case 'articles':
      return {
        ...row,
        all: { to, label: `All ${section.name} articles` },
        cards: (highlights.articles[section.name] ?? []).map((article) => ({
          key: article.id,
          draw: (lead) => <ArticleCard article={article} headingLevel={3} featured={lead} />,
        })),
      };
    case 'campaigns':
      return {
        ...row,
        all: { to, label: 'All campaigns' },
        cards: highlights.campaigns.map((campaign) => ({
          key: campaign.id,
          draw: (lead) => <CampaignCard campaign={campaign} headingLevel={3} featured={lead} />,
        })),
      };
    case 'boycotts':
      return {
        ...row,
        all: { to, label: 'All boycotts' },
        cards: highlights.boycotts.map((boycott) => ({
          key: boycott.id,
          draw: (lead) => (
            <ContentCard
              title={boycott.title}
              href={`${to}#${boycott.slug}`}
              image={boycott.heroImage}
              tone={section.color}
              eyebrow={<StatusBadge status={boycott.status} />}
              summary={boycott.reason}
              headingLevel={3}
              featured={lead}
            />
          ),
        })),
      };
    case 'resources':
      return {
        ...row,
        all: { to, label: 'All free resources' },
        cards: highlights.resourceGroups.map((group) => ({
          key: group.id,
          draw: (lead) => (
            <ContentCard
              title={group.category}
              href={`${to}#${group.slug}`}
              image={group.heroImage}
              tone={section.color}
              eyebrow={`${group.resourceCount} free resources`}
              summary={group.description}
              headingLevel={3}
              featured={lead}
            />
          ),
        })),
      };
  }
}

function HighlightRow({ row, lead }: { row: Row; lead: boolean }) {
  return (
    <section
      className={lead ? 'highlights highlights--lead' : 'highlights'}
      aria-labelledby={row.id}
    >
      <div className="highlights__head">
        <h2 id={row.id}>{row.title}</h2>
        {row.all && (
          <Link className="highlights__more" to={row.all.to}>
            {row.all.label} <span aria-hidden="true">→</span>
          </Link>
        )}
      </div>
      <ul className="card-grid" role="list" onFocus={revealFocusedCard}>
        {row.cards.map((card, index) => (
          <li key={card.key}>{card.draw(lead && index === 0)}</li>
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
