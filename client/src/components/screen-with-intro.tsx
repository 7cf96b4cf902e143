import type { ReactNode } from 'react';
import { useDocumentHead } from '../lib/document-head';
import { useScreenCopy } from '../lib/site-data';
import { MarkdownContent } from './markdown-content';
import { PageMasthead } from './page-masthead';

/**
 * A section's screen that opens with the publisher's own copy of it (`useScreenCopy` in
 * lib/site-data.ts): the masthead and the introduction, then the section's own items.
 */
export function ScreenWithIntro({
  screen,
  title,
  eyebrow,
  children,
}: {
  /** The page whose copy opens the screen (`collective`, `empowerment`). */
  screen: string;
  /** The title when the publisher has taken that page off the site. */
  title: string;
  eyebrow: string;
  children: ReactNode;
}) {
  const intro = useScreenCopy(screen, title);
  useDocumentHead(intro.title, intro.description);
  return (
    <>
      <PageMasthead eyebrow={eyebrow} title={intro.title} lede={intro.description} />
      <div className="page-body">
        <div className="prose intro">
          <MarkdownContent blocks={intro.body.children} />
        </div>
        {children}
      </div>
    </>
  );
}
