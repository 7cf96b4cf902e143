import { useEffect } from 'react';

const SITE_NAME = 'Cohort';

/** Sets the document title and meta description for the page being shown. */
export function useDocumentHead(title: string, description?: string) {
  useEffect(() => {
    document.title = title === SITE_NAME ? title : `${title} · ${SITE_NAME}`;
    if (description) {
      document.querySelector('meta[name="description"]')?.setAttribute('content', description);
    }
  }, [title, description]);
}
