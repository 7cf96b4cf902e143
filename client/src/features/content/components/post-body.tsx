import type { MarkdownTree } from '../../../../../contract/markdown-tree';
import { MarkdownContent } from '../../../components/markdown-content';
import { useSiteData } from '../../../lib/site-data';
import { ContentImage } from './content-image';
import { MembersOnlyRest } from './members-only-rest';

/**
 * What an article and a page of its own show under their masthead: the feature image (when there
 * is one), then the body. A restricted post drawn for a reader who may not read it has only its
 * opening (`teaser`), and under it what unlocks the rest (the screen's `locks`).
 */
export function PostBody({
  hero,
  body,
  bodyKey,
  teaser,
}: {
  hero: { src: string; alt: string | undefined } | undefined;
  body: MarkdownTree;
  bodyKey: string;
  teaser: boolean;
}) {
  const { locks = {} } = useSiteData();
  return (
    <>
      {hero && (
        <div className="article__hero">
          <ContentImage
            src={hero.src}
            alt={hero.alt}
            priority
            sizes="(min-width: 60.5rem) 58rem, calc(100vw - 2.5rem)"
          />
        </div>
      )}
      <div className="prose article__body">
        {teaser ? (
          <MembersOnlyRest bodyKey={bodyKey} teaser={body} lock={locks[bodyKey]} />
        ) : (
          <MarkdownContent blocks={body.children} />
        )}
      </div>
    </>
  );
}
