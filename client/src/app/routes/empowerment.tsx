import { PageMasthead } from '../../components/page-masthead';
import { MarkdownContent } from '../../components/markdown-content';
import { ResourceGroupSection } from '../../features/content/components/resource-group-section';
import { useDocumentHead } from '../../lib/document-head';
import { useScreenCopy, useSiteData } from '../../lib/site-data';

/** /empowerment: free learning resources in three groups. */
export default function EmpowermentRoute() {
  const { resourceGroups = [] } = useSiteData();
  const intro = useScreenCopy('empowerment', 'Empowerment');
  useDocumentHead(intro.title, intro.description);
  return (
    <>
      <PageMasthead eyebrow="Free learning" title={intro.title} lede={intro.description} />
      <div className="page-body">
        <div className="prose intro">
          <MarkdownContent blocks={intro.body.children} />
        </div>
        {resourceGroups.map((group) => (
          <ResourceGroupSection key={group.id} group={group} />
        ))}
      </div>
    </>
  );
}
