import { PageMasthead } from '../../components/page-masthead';
import { BoycottCard } from '../../features/content/components/boycott-card';
import { MarkdownContent } from '../../components/markdown-content';
import { useDocumentHead } from '../../lib/document-head';
import { useScreenCopy, useSiteData } from '../../lib/site-data';

/** /collective: boycotts, why they began, what to support instead and what happened. */
export default function CollectiveRoute() {
  const { boycotts = [] } = useSiteData();
  const intro = useScreenCopy('collective', 'Collective Action');
  useDocumentHead(intro.title, intro.description);
  return (
    <>
      <PageMasthead eyebrow="Boycotts" title={intro.title} lede={intro.description} />
      <div className="page-body">
        <div className="prose intro">
          <MarkdownContent blocks={intro.body.children} />
        </div>
        <div className="boycott-list">
          {boycotts.map((boycott) => (
            <BoycottCard key={boycott.id} boycott={boycott} />
          ))}
        </div>
      </div>
    </>
  );
}
