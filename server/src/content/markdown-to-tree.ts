import type { Image, Nodes, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import { parseUploadUrl } from '../../../contract/images.js';
import { splitAtDivider } from '../../../contract/posts.js';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { isSafeHref } from '../../../contract/safe-href.js';
import type {
  BlockNode,
  InlineNode,
  ListItemNode,
  MarkdownTree,
} from '../../../contract/markdown-tree.js';

/**
 * Turns a Markdown body into the tree the client renders. Only a safe subset of mdast survives:
 * raw HTML and images other than uploads alone on their line are dropped, reference links are resolved, links to anything but http(s)
 * or a path on this site become plain text, and source positions are stripped.
 */
export function convertMarkdownToTree(markdown: string): MarkdownTree {
  return checkAndConvertMarkdown(markdown).tree;
}

/** Both at once, from one parse: the tree, and what the content format forbids in the body. */
export function checkAndConvertMarkdown(markdown: string): {
  tree: MarkdownTree;
  problems: string[];
} {
  const root = fromMarkdown(markdown);
  const definitions = collectDefinitions(root);
  return {
    tree: { type: 'root', children: convertBlocks(root.children, definitions) },
    problems: problemsOf(root, definitions),
  };
}

/** The members-only divider (contract/posts.ts): the one comment a body may hold. */
const isDivider = (html: string) => splitAtDivider(html.trim()).after !== null;

/** What the content format forbids in a body, as messages for the build's error report. */
export function findMarkdownProblems(markdown: string): string[] {
  const root = fromMarkdown(markdown);
  return problemsOf(root, collectDefinitions(root));
}

function problemsOf(root: Root, definitions: ReturnType<typeof collectDefinitions>): string[] {
  const problems: string[] = [];
  visit(root, (node) => {
    if (node.type === 'heading' && node.depth === 1) {
      problems.push(`"# ${plainText(node)}": headings start at ## (the title is the page's H1)`);
    } else if (node.type === 'html' && !isDivider(node.value)) {
      problems.push(`raw HTML is not allowed: ${node.value.trim().slice(0, 40)}`);
    } else if (node.type === 'image') {
      if (!parseUploadUrl(node.url)) {
        problems.push(
          `image "${node.url}": images must be uploaded to this site (the desk's Upload image)`,
        );
      } else if (!node.alt?.trim()) {
        problems.push(
          `image "${node.url}" needs alt text: describe it for readers who cannot see it`,
        );
      }
    } else if (node.type === 'imageReference') {
      problems.push('images must be written ![alt](address), not by reference');
    } else if (node.type === 'paragraph' && node.children.some(isImage) && !imageAlone(node)) {
      problems.push('an image must be a paragraph of its own, with no text beside it');
    } else if (node.type === 'link' && !isSafeHref(node.url)) {
      problems.push(`link to "${node.url}": links must be http(s) addresses or paths on this site`);
    } else if (node.type === 'linkReference') {
      const url = definitions.get(node.identifier);
      if (url !== undefined && !isSafeHref(url)) {
        problems.push(`link to "${url}": links must be http(s) addresses or paths on this site`);
      }
    }
  });
  return problems;
}

/** The words a reader sees, for the article length rule. */
export function countWords(tree: MarkdownTree): number {
  const words = (nodes: readonly (BlockNode | InlineNode | ListItemNode)[]): number =>
    nodes.reduce((sum, node) => {
      if ('value' in node) return sum + (node.value.match(/\S+/g)?.length ?? 0);
      if ('children' in node) return sum + words(node.children);
      return sum;
    }, 0);
  return words(tree.children);
}

type Definitions = Map<string, string>;

function collectDefinitions(root: Root): Definitions {
  const definitions: Definitions = new Map();
  visit(root, (node) => {
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
  });
  return definitions;
}

function visit(node: Nodes, callback: (node: Nodes) => void): void {
  callback(node);
  if ('children' in node) for (const child of node.children) visit(child, callback);
}

function plainText(node: Nodes): string {
  if ('value' in node) return node.value;
  if ('children' in node) return node.children.map(plainText).join('');
  return '';
}

function convertBlocks(nodes: readonly RootContent[], definitions: Definitions): BlockNode[] {
  return nodes.flatMap((node) => convertBlock(node, definitions));
}

function convertBlock(node: RootContent, definitions: Definitions): BlockNode[] {
  switch (node.type) {
    case 'paragraph': {
      const image = imageAlone(node);
      if (image) return imageBlock(image);
      const children = convertInlines(node.children, definitions);
      return children.length > 0 ? [{ type: 'paragraph', children }] : [];
    }
    case 'heading': {
      const depth = Math.min(Math.max(node.depth, 2), 4) as 2 | 3 | 4;
      return [{ type: 'heading', depth, children: convertInlines(node.children, definitions) }];
    }
    case 'list':
      return [
        {
          type: 'list',
          ordered: node.ordered === true,
          start: node.ordered && node.start != null && node.start !== 1 ? node.start : null,
          spread: node.spread === true,
          children: node.children.map((item) => ({
            type: 'listItem',
            children: convertBlocks(item.children, definitions),
          })),
        },
      ];
    case 'blockquote':
      return [{ type: 'blockquote', children: convertBlocks(node.children, definitions) }];
    case 'code':
      return [{ type: 'code', value: node.value }];
    case 'thematicBreak':
      return [{ type: 'thematicBreak' }];
    default:
      // Raw HTML, definitions, images and anything this site does not render.
      return [];
  }
}

const isImage = (node: PhrasingContent): node is Image => node.type === 'image';

/** The image a paragraph holds alone (whitespace aside), if it does. */
function imageAlone(paragraph: Paragraph): Image | null {
  const rest = paragraph.children.filter(
    (child) => !(child.type === 'text' && child.value.trim() === ''),
  );
  const [only] = rest;
  return rest.length === 1 && only && isImage(only) ? only : null;
}

/** An uploaded image as a figure; any other image is dropped (the checks refuse it). */
function imageBlock(image: Image): BlockNode[] {
  const uploaded = parseUploadUrl(image.url);
  if (!uploaded) return [];
  return [
    {
      type: 'image',
      src: image.url,
      alt: image.alt?.trim() ?? '',
      caption: image.title?.trim() || null,
      width: uploaded.width,
      height: uploaded.height,
    },
  ];
}

function convertInlines(nodes: readonly PhrasingContent[], definitions: Definitions): InlineNode[] {
  return nodes.flatMap((node) => convertInline(node, definitions));
}

function convertInline(node: PhrasingContent, definitions: Definitions): InlineNode[] {
  switch (node.type) {
    case 'text':
      return [{ type: 'text', value: node.value }];
    case 'strong':
    case 'emphasis':
      return [{ type: node.type, children: convertInlines(node.children, definitions) }];
    case 'delete':
      return convertInlines(node.children, definitions);
    case 'inlineCode':
      return [{ type: 'inlineCode', value: node.value }];
    case 'break':
      return [{ type: 'break' }];
    case 'link':
      return convertLink(node.url, convertInlines(node.children, definitions));
    case 'linkReference':
      return convertLink(
        definitions.get(node.identifier) ?? '',
        convertInlines(node.children, definitions),
      );
    default:
      // Raw HTML, images, footnotes.
      return [];
  }
}

function convertLink(url: string, children: InlineNode[]): InlineNode[] {
  const href = url.trim();
  return isSafeHref(href) ? [{ type: 'link', url: href, children }] : children;
}
