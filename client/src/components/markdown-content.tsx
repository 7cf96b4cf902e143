import { Fragment, type ReactNode } from 'react';
import { Link } from '../lib/router';
import { ExternalLink } from './external-link';
import { BookmarkCard } from './bookmark-card';
import { EmbedCard } from './embed-card';
import { MediaPlayer } from './media-player';
import { isExternalHref, isSafeHref } from '../../../contract/safe-href';
import { isRemoteImageUrl, parseUploadUrl, srcsetOf } from '../../../contract/images';
import { parseMediaUrl } from '../../../contract/media';
import type {
  BlockNode,
  FootnoteNode,
  FootnoteReferenceNode,
  ImageNode,
  InlineNode,
  RemoteImageNode,
  TableNode,
} from '../../../contract/markdown-tree';

/**
 * Renders a Markdown body (parsed at build time) as React elements. Only the node types the build
 * keeps are drawn; anything else is skipped, and never as HTML.
 */
export function MarkdownContent({ blocks }: { blocks: readonly BlockNode[] }) {
  return <>{blocks.map((block, index) => renderBlock(block, index, true))}</>;
}

function renderBlock(node: BlockNode, key: number, inLooseContext: boolean): ReactNode {
  switch (node.type) {
    case 'paragraph':
      return inLooseContext ? (
        <p key={key}>{renderInlines(node.children)}</p>
      ) : (
        <Fragment key={key}>{renderInlines(node.children)}</Fragment>
      );
    case 'heading': {
      const Heading = `h${node.depth}` as const;
      return <Heading key={key}>{renderInlines(node.children)}</Heading>;
    }
    case 'list': {
      const items = node.children.map((item, index) => (
        <li key={index}>
          {item.children.map((child, childIndex) => renderBlock(child, childIndex, node.spread))}
        </li>
      ));
      return node.ordered ? (
        <ol key={key} start={node.start ?? undefined} reversed={node.reversed}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'blockquote':
      return (
        <blockquote key={key}>
          {node.children.map((child, index) => renderBlock(child, index, true))}
        </blockquote>
      );
    case 'code':
      return (
        <pre key={key}>
          <code className={node.lang ? `language-${node.lang}` : undefined}>{node.value}</code>
        </pre>
      );
    case 'thematicBreak':
      return <hr key={key} />;
    case 'image':
      return <BodyImage key={key} image={node} />;
    case 'remoteImage':
      return isRemoteImageUrl(node.src) ? <RemoteImage key={key} image={node} /> : null;
    // The build made players only of uploads, and cards only of http(s) addresses: checking
    // again costs nothing and guards the renderer.
    case 'audio':
    case 'video':
      return parseMediaUrl(node.src) ? <MediaPlayer key={key} media={node} /> : null;
    case 'embed':
      return isSafeHref(node.url) ? <EmbedCard key={key} embed={node} /> : null;
    case 'bookmark':
      return isSafeHref(node.url) ? <BookmarkCard key={key} bookmark={node} /> : null;
    case 'table':
      return <BodyTable key={key} table={node} />;
    case 'footnotes':
      return (
        <section key={key} className="footnotes" aria-labelledby="footnotes-label">
          <hr />
          <h2 id="footnotes-label" className="visually-hidden">
            Notes
          </h2>
          <ol>{node.children.map(renderFootnote)}</ol>
        </section>
      );
    default:
      return null;
  }
}

/**
 * A table in a wrapper that scrolls sideways on a narrow screen, and takes the keyboard's focus so
 * it can be scrolled without a mouse.
 */
function BodyTable({ table }: { table: TableNode }) {
  const cells = (row: readonly InlineNode[][], Cell: 'th' | 'td') =>
    row.map((cell, column) => (
      <Cell key={column} style={{ textAlign: table.align[column] ?? undefined }}>
        {renderInlines(cell)}
      </Cell>
    ));
  return (
    <div className="table-scroll" role="region" aria-label="Table" tabIndex={0}>
      <table>
        {table.caption && <caption>{renderInlines(table.caption)}</caption>}
        {!table.headless && (
          <thead>
            <tr>{cells(table.head, 'th')}</tr>
          </thead>
        )}
        {table.rows.length > 0 && (
          <tbody>
            {table.rows.map((row, index) => (
              <tr key={index}>{cells(row, 'td')}</tr>
            ))}
          </tbody>
        )}
      </table>
    </div>
  );
}

const noteAnchor = (id: string) => `fn-${id}`;
const referenceAnchor = (id: string, occurrence: number) =>
  occurrence === 1 ? `fnref-${id}` : `fnref${occurrence}-${id}`;

/** A note, with a link back to where it was first referenced (none when nothing references it). */
function renderFootnote(note: FootnoteNode): ReactNode {
  const back = note.references > 0 && (
    <a
      href={`#${referenceAnchor(note.id, 1)}`}
      className="footnotes__back"
      aria-label={`Back to reference ${note.number}`}
    >
      {/* Drawn as text, not as an emoji. */}
      {'\u21a9\ufe0e'}
    </a>
  );
  const last = note.children.at(-1);
  // The link back ends the note's last paragraph, as a reader expects; else it follows the note.
  const body =
    last?.type === 'paragraph' ? (
      <>
        {note.children.slice(0, -1).map((child, index) => renderBlock(child, index, true))}
        <p>
          {renderInlines(last.children)}
          {back && ' '}
          {back}
        </p>
      </>
    ) : (
      <>
        {note.children.map((child, index) => renderBlock(child, index, true))}
        {back}
      </>
    );
  return (
    <li key={note.number} id={noteAnchor(note.id)}>
      {body}
    </li>
  );
}

function renderFootnoteReference(node: FootnoteReferenceNode, key: number): ReactNode {
  return (
    <sup key={key}>
      <a
        href={`#${noteAnchor(node.id)}`}
        id={referenceAnchor(node.id, node.occurrence)}
        aria-describedby="footnotes-label"
      >
        {node.number}
      </a>
    </sup>
  );
}

/** The reading column's width (styles.css `--reading`, 42rem) on a wide screen; the page's below. */
const BODY_IMAGE_SIZES = '(min-width: 48rem) 42rem, calc(100vw - 2.5rem)';

/**
 * An uploaded image: AVIF where the browser takes it, WebP otherwise, each in every width it was
 * made in, so the browser fetches the one its screen needs; its size is set, so nothing moves when
 * it arrives, and it loads only as it nears the screen.
 */
function BodyImage({ image }: { image: ImageNode }) {
  const uploaded = parseUploadUrl(image.src);
  if (!uploaded) return null;
  return (
    <figure>
      <picture>
        <source type="image/avif" srcSet={srcsetOf(uploaded, 'avif')} sizes={BODY_IMAGE_SIZES} />
        <img
          src={image.src}
          srcSet={srcsetOf(uploaded, 'webp')}
          sizes={BODY_IMAGE_SIZES}
          width={image.width}
          height={image.height}
          alt={image.alt}
          loading="lazy"
          decoding="async"
        />
      </picture>
      {image.caption && <figcaption>{image.caption}</figcaption>}
    </figure>
  );
}

/**
 * An image an import could not fetch, drawn from its old address until it is stored here: its
 * size is unknown, and its old host is told nothing of the page that shows it.
 */
function RemoteImage({ image }: { image: RemoteImageNode }) {
  return (
    <figure>
      <img
        src={image.src}
        alt={image.alt}
        loading="lazy"
        decoding="async"
        referrerPolicy="no-referrer"
      />
      {image.caption && <figcaption>{image.caption}</figcaption>}
    </figure>
  );
}

function renderInlines(nodes: readonly InlineNode[]): ReactNode[] {
  return nodes.map(renderInline);
}

function renderInline(node: InlineNode, key: number): ReactNode {
  switch (node.type) {
    case 'text':
      return node.value;
    case 'strong':
      return <strong key={key}>{renderInlines(node.children)}</strong>;
    case 'emphasis':
      return <em key={key}>{renderInlines(node.children)}</em>;
    case 'delete':
      return <del key={key}>{renderInlines(node.children)}</del>;
    case 'footnoteReference':
      return renderFootnoteReference(node, key);
    case 'inlineCode':
      return <code key={key}>{node.value}</code>;
    case 'break':
      return <br key={key} />;
    case 'link':
      return renderLink(node.url, renderInlines(node.children), key, node.newTab);
    default:
      return null;
  }
}

/** A link opens in a new tab by its own choice, else by the site's rule (contract/link-target.ts). */
function renderLink(url: string, children: ReactNode[], key: number, newTab?: boolean): ReactNode {
  // The build already dropped unsafe links; checking again costs nothing and guards the renderer.
  if (!isSafeHref(url)) return <span key={key}>{children}</span>;
  if (newTab ?? isExternalHref(url)) {
    return (
      <ExternalLink key={key} href={url}>
        {children}
      </ExternalLink>
    );
  }
  if (isExternalHref(url)) {
    return (
      <a key={key} href={url}>
        {children}
      </a>
    );
  }
  return (
    <Link key={key} to={url}>
      {children}
    </Link>
  );
}
