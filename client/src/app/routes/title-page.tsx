import { PageMasthead } from '../../components/page-masthead';
import { useDocumentHead } from '../../lib/document-head';

/** A page that shows only its title (the seed's placeholder pages). */
export default function TitlePage({ title }: { title: string }) {
  useDocumentHead(title);
  return <PageMasthead title={title} />;
}
