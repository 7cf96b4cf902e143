import { useEffect } from 'react';

const SITE_NAME = 'Cohort';
/** index.html's description, restored on pages that have none of their own. */
let siteDescription: string | undefined;

/** Open Graph details for pages worth sharing (articles). Title and description come along. */
export interface OpenGraph {
  type: 'article' | 'website';
  /** ISO date, for articles. */
  publishedTime?: string;
  section?: string;
}

/**
 * Sets the document title, the meta description and, when given, Open Graph tags for the page
 * being shown. A page without a description gets the site's default one back.
 */
export function useDocumentHead(title: string, description?: string, openGraph?: OpenGraph) {
  const ogType = openGraph?.type;
  const ogPublishedTime = openGraph?.publishedTime;
  const ogSection = openGraph?.section;
  useEffect(() => {
    const fullTitle = title === SITE_NAME ? title : `${title} · ${SITE_NAME}`;
    document.title = fullTitle;
    const descriptionTag = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (descriptionTag) {
      siteDescription ??= descriptionTag.content;
      descriptionTag.content = description ?? siteDescription;
    }
    if (!ogType) return;
    const tags = Object.entries({
      'og:type': ogType,
      'og:site_name': SITE_NAME,
      'og:title': title,
      'og:description': description,
      'og:url': window.location.origin + window.location.pathname,
      'article:published_time': ogPublishedTime,
      'article:section': ogSection,
    }).flatMap(([property, content]) => (content ? [addMetaProperty(property, content)] : []));
    return () => tags.forEach((tag) => tag.remove());
  }, [title, description, ogType, ogPublishedTime, ogSection]);
}

function addMetaProperty(property: string, content: string): HTMLMetaElement {
  const tag = document.createElement('meta');
  tag.setAttribute('property', property);
  tag.content = content;
  document.head.append(tag);
  return tag;
}
