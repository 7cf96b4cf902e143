import { useMatches } from 'react-router-dom';
import { useDocumentHead } from '../../lib/document-head';

function isTitled(handle: unknown): handle is { title: string } {
  return typeof handle === 'object' && handle !== null && 'title' in handle;
}

/** A page that shows only its title (the seed's placeholder pages). */
export default function TitlePage() {
  const match = useMatches().findLast((entry) => isTitled(entry.handle));
  const title = isTitled(match?.handle) ? match.handle.title : 'Cohort';
  useDocumentHead(title);
  return (
    <section className="page page--narrow">
      <h1>{title}</h1>
    </section>
  );
}
