import { useEffect, useState } from 'react';
import { fetchSections } from './sections-api';

/** The names of the sections of articles; null until they load (or when not wanted). */
export function useArticleSectionNames(wanted: boolean): string[] | null {
  const [names, setNames] = useState<string[] | null>(null);
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    fetchSections(controller.signal).then(
      ({ sections }) =>
        setNames(
          sections.filter((section) => section.lists === 'articles').map((each) => each.name),
        ),
      // Null when the list cannot be read: the caller says what stays offered.
      () => setNames(null),
    );
    return () => controller.abort();
  }, [wanted]);
  return names;
}
