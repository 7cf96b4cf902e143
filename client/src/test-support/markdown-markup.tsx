import { renderToStaticMarkup } from 'react-dom/server';
import type { BlockNode } from '../../../contract/markdown-tree';
import { MarkdownContent } from '../components/markdown-content';
import { StaticRouter } from '../lib/router';

/** The HTML a body's blocks are drawn as on the server, for the tests of what a block shows. */
export const markdownMarkup = (blocks: readonly BlockNode[]) =>
  renderToStaticMarkup(
    <StaticRouter location="/">
      <MarkdownContent blocks={[...blocks]} />
    </StaticRouter>,
  );
