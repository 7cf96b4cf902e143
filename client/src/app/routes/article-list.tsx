import { PageMasthead } from '../../components/page-masthead';
import { ArticleCard } from '../../features/content/components/article-card';
import { NewestFirstList } from '../../features/content/components/newest-first-list';
import { EMPTY_ARTICLES_TEXT } from '../../features/content/sections';
import type { ArticleCategory } from '../../features/content/types';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteData } from '../../lib/site-data';
import { useArticleSection } from '../../lib/site-navigation';

/** A section of articles' page (/health, /wealth…): its articles, newest first. */
export default function ArticleListRoute({ category }: { category: ArticleCategory }) {
  const { articles = [] } = useSiteData();
  const intro = useArticleSection(category)?.description ?? '';
  useDocumentHead(category, intro);
  return (
    <>
      <PageMasthead eyebrow="Articles" title={category} lede={intro} />
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
