import type { ReactNode } from 'react';
import { useDocumentHead } from '../lib/document-head';
import { useScreenCopy } from '../lib/site-data';
import { MarkdownContent } from './markdown-content';
import { PageMasthead } from './page-masthead';

/**
 * A section's screen that opens with the publisher's own copy of it (`useScreenCopy` in
 * lib/site-data.ts): the masthead (the section's name, as the menu says it) and the
 * introduction, then the section's own items.
 */
export function ScreenWithIntro({
  screen,
  title,
  eyebrow,
  children,
}: {
  /** The page whose copy opens the screen (`collective`, `empowerment`). */
  screen: string;
  /** The section's name: the masthead's and the document's title. */
  title: string;
  eyebrow: string;
  children: ReactNode;
}) {
  const intro = useScreenCopy(screen, title);
  useDocumentHead(title, intro.description);
  return (
    <>
      <PageMasthead eyebrow={eyebrow} title={title} lede={intro.description} />
      <div className="page-body">
        <div className="prose intro">
          <MarkdownContent blocks={intro.body.children} />
        </div>
        {children}
      </div>
    </>
  );
}
