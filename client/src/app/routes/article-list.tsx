import { PageMasthead } from '../../components/page-masthead';
import { ArticleCard } from '../../features/content/components/article-card';
import { NewestFirstList } from '../../features/content/components/newest-first-list';
import { EMPTY_ARTICLES_TEXT, sectionIntros } from '../../features/content/sections';
import type { ArticleCategory } from '../../features/content/types';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteData } from '../../lib/site-data';

/** /health and /wealth: the category's articles, newest first. */
export default function ArticleListRoute({ category }: { category: ArticleCategory }) {
  const { articles = [] } = useSiteData();
  useDocumentHead(category, sectionIntros[category]);
  return (
    <>
      <PageMasthead eyebrow="Articles" title={category} lede={sectionIntros[category]} />
      <div className="page-body">
        <NewestFirstList
          items={articles.filter((article) => article.category === category)}
          emptyText={EMPTY_ARTICLES_TEXT}
          renderItem={(article, featured) => <ArticleCard article={article} featured={featured} />}
        />
      </div>
    </>
  );
}
