import { EMBED_PROVIDERS, type EmbedProvider } from '../../../contract/embeds.js';
import type {
  BlockNode,
  BookmarkNode,
  EmbedNode,
  InlineNode,
  MediaNode,
  TableCell,
  TableNode,
} from '../../../contract/markdown-tree.js';
import {
  mailImageSize,
  mailImageUrl,
  parseUploadUrl,
  type MailImageWidth,
} from '../../../contract/images.js';
import { formatDuration } from '../../../contract/media.js';
import { theNewsletterOf } from '../../../contract/newsletter-name.js';
import { NEWSLETTER_PATHS } from '../../../contract/newsletters.js';
import type { Mail } from '../mail/mailer.js';
import type { NewsletterIssue } from '../../../contract/newsletters.js';
import type { SiteSettings } from '../../../contract/site-settings.js';
import { TEST_COPY_DELIVERY, isTrackableUrl, type MailTracking } from './tracking.js';

export interface IssueMailSite {
  siteUrl: string;
  /** The publication's title (its settings' now, or SITE_NAME's for the command line). */
  siteName: string;
  /** The publication's logo as an absolute address, shown above the issue; none: its name. */
  logoUrl?: string | null;
  /** The settings' footer text, at the foot of every issue. */
  footerText?: string;
  /** The settings' accent (`#rrggbb`): the bar above the issue and the edge of its cards. */
  accentColor?: string;
  /** The address of the List-Unsubscribe mailto (MAIL_FROM's). */
  unsubscribeMailbox: string;
  /** An open pixel and links through the site in the HTML part; none when NEWSLETTER_TRACKING=off. */
  tracking?: MailTracking;
}

/**
 * The site as the publication's settings say now (its title, logo, footer text and accent): a
 * send started after a rename says the new name.
 */
export function issueMailSiteWith(
  site: Omit<IssueMailSite, 'siteName'>,
  settings: Pick<SiteSettings, 'title' | 'logo' | 'footerText' | 'accentColor'>,
): IssueMailSite {
  return {
    ...site,
    siteName: settings.title,
    logoUrl: settings.logo && `${site.siteUrl}${settings.logo}`,
    footerText: settings.footerText,
    accentColor: settings.accentColor,
  };
}

/** What differs per recipient: filled into the rendered issue by `issueMailFor`. */
const TOKEN = '\u0000unsubscribe-token\u0000';
/** The open pixel's address, and the Nth tracked link's (`links[N]`), filled in the same way. */
const OPEN_PIXEL = '\u0000open-pixel\u0000';
const CLICK = new RegExp(`${'\u0000'}click:(\\d+)${'\u0000'}`, 'g');

export interface RenderedIssue {
  subject: string;
  html: string;
  text: string;
  /** The HTML part's links that go through the site, when it is tracked. */
  links?: string[];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const unescapeHtml = (text: string) =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/**
 * The HTML with each http(s) link (the unsubscribe link aside) a placeholder for its address
 * through the site, and an open pixel before `</body>`: filled per recipient by `issueMailFor`.
 */
function withTracking(html: string): { html: string; links: string[] } {
  const links: string[] = [];
  const tracked = html.replace(/<a href="([^"]*)"/g, (anchor, href: string) => {
    const url = unescapeHtml(href);
    if (href.includes(TOKEN) || !isTrackableUrl(url)) return anchor;
    let index = links.indexOf(url);
    if (index < 0) index = links.push(url) - 1;
    return `<a href="\u0000click:${index}\u0000"`;
  });
  return { html: tracked.replace('</body>', () => `${OPEN_PIXEL}</body>`), links };
}

// Inline styles only: most mail clients drop <style> blocks and every external stylesheet.
const STYLE = {
  body: 'margin:0;padding:0;background:#f4f1ea;',
  wrapper:
    'max-width:600px;margin:0 auto;padding:24px 16px;font-family:Georgia,"Times New Roman",serif;color:#141414;font-size:17px;line-height:1.55;',
  title: 'font-size:28px;line-height:1.2;margin:0 0 8px;',
  eyebrow:
    'font-family:Arial,Helvetica,sans-serif;font-size:13px;letter-spacing:.06em;text-transform:uppercase;color:#5b5b5b;margin:0 0 16px;',
  h2: 'font-size:22px;margin:28px 0 8px;',
  h3: 'font-size:19px;margin:24px 0 8px;',
  p: 'margin:0 0 16px;',
  link: 'color:#1d4ed8;text-decoration:underline;',
  quote: 'margin:0 0 16px;padding:0 0 0 14px;border-left:3px solid #c9c2b3;color:#3d3d3d;',
  code: 'font-family:Menlo,Consolas,monospace;font-size:14px;background:#ece7dc;padding:1px 4px;',
  caption: 'font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#5b5b5b;margin:6px 0 0;',
  pre: 'font-family:Menlo,Consolas,monospace;font-size:14px;background:#ece7dc;padding:12px;white-space:pre-wrap;margin:0 0 16px;',
  card: 'display:block;margin:0 0 12px;padding:14px 16px;background:#ffffff;border:1px solid #e2dccf;border-radius:6px;color:#141414;text-decoration:none;',
  cardTitle: 'font-weight:bold;font-size:18px;margin:0 0 4px;',
  cardSummary: 'margin:0;font-size:15px;color:#3d3d3d;',
  tableWrap: 'overflow-x:auto;margin:0 0 16px;',
  // Cards are tables: Outlook for Windows lays out nothing else side by side, and drops overlays.
  cardTable:
    'margin:0 0 16px;border-collapse:separate;background:#ffffff;border:1px solid #e2dccf;font-family:Arial,Helvetica,sans-serif;',
  cardCell: 'padding:14px 16px;vertical-align:top;',
  play: 'color:#1d4ed8;font-weight:bold;font-size:16px;text-decoration:none;',
  cardHeading: 'margin:6px 0 0;font-size:16px;line-height:1.35;font-weight:bold;color:#141414;',
  cardText: 'margin:4px 0 0;font-size:14px;line-height:1.45;color:#3d3d3d;',
  cardSource: 'margin:8px 0 0;font-size:13px;color:#5b5b5b;',
  playerBox:
    'padding:36px 16px;text-align:center;font-family:Arial,Helvetica,sans-serif;font-size:18px;font-weight:bold;',
  table:
    'border-collapse:collapse;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.45;min-width:100%;',
  th: 'border-bottom:2px solid #c9c2b3;padding:6px 10px;vertical-align:top;',
  td: 'border-bottom:1px solid #d8d1c2;padding:6px 10px;vertical-align:top;',
  notes: 'margin:32px 0 0;padding:16px 0 0 24px;border-top:1px solid #d8d1c2;font-size:15px;',
  footer:
    'font-family:Arial,Helvetica,sans-serif;font-size:13px;color:#5b5b5b;border-top:1px solid #d8d1c2;margin-top:32px;padding-top:16px;',
};

/** A link of the issue's body: paths on this site become absolute (mail has no base address). */
const absolute = (url: string, siteUrl: string) => (url.startsWith('/') ? `${siteUrl}${url}` : url);

function inlineHtml(nodes: readonly InlineNode[], siteUrl: string): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
          return escapeHtml(node.value);
        case 'strong':
          return `<strong>${inlineHtml(node.children, siteUrl)}</strong>`;
        case 'emphasis':
          return `<em>${inlineHtml(node.children, siteUrl)}</em>`;
        case 'delete':
          return `<del>${inlineHtml(node.children, siteUrl)}</del>`;
        case 'footnoteReference':
          // A number, not a link: many mail readers drop links within the message.
          return `<sup>${node.number}</sup>`;
        case 'inlineCode':
          return `<code style="${STYLE.code}">${escapeHtml(node.value)}</code>`;
        case 'break':
          return '<br>';
        case 'link':
          return `<a href="${escapeHtml(absolute(node.url, siteUrl))}" style="${STYLE.link}">${inlineHtml(node.children, siteUrl)}</a>`;
      }
    })
    .join('');
}

/** A mail's column: what its images are drawn at, at most. */
const COLUMN_WIDTH = 560;

/** An upload as a mail shows it: its JPEG mail copy, absolute, with the size it is drawn at. */
function mailImage(
  image: { src: string },
  width: MailImageWidth,
  drawnAt: number,
  siteUrl: string,
): { src: string; width: number; height: number } | null {
  const upload = parseUploadUrl(image.src);
  if (!upload) return null;
  const copy = mailImageSize(upload, width);
  const drawnWidth = Math.min(copy.width, drawnAt);
  return {
    src: absolute(mailImageUrl(upload, width), siteUrl),
    width: drawnWidth,
    height: Math.max(1, Math.round((copy.height * drawnWidth) / copy.width)),
  };
}

/** ▶ as text, not the emoji some phones draw for it (the variation selector says so). */
const PLAY = '\u25B6\uFE0E';

/** What a provider's embed does once played: a video plays, a podcast is listened to. */
function verbOf(provider: EmbedProvider): 'Play' | 'Listen' | 'View' {
  switch (provider) {
    case 'youtube':
    case 'vimeo':
    case 'tiktok':
      return 'Play';
    case 'spotify':
    case 'soundcloud':
    case 'apple-podcasts':
      return 'Listen';
    default:
      return 'View';
  }
}

/** What a mail's link to the player on the site says (`▶ Play on YouTube`), the mark aside. */
function playWords(provider: EmbedProvider): string {
  return `${verbOf(provider)} on ${EMBED_PROVIDERS[provider].name}`;
}

/** The play mark before what plays, and nothing before what is only seen. */
const markOf = (provider: EmbedProvider) => (verbOf(provider) === 'View' ? '' : `${PLAY} `);

/** `Listen (12:05)`, `Watch`: what an audio or video file's link in a mail says. */
function mediaWords(node: MediaNode): string {
  const verb = node.type === 'audio' ? 'Listen' : 'Watch';
  return node.duration === null ? verb : `${verb} (${formatDuration(node.duration)})`;
}

/** Where the issue is on the site, for what a mail cannot play: its players are there. */
interface MailBody {
  siteUrl: string;
  pageUrl: string;
}

/**
 * An embed as its thumbnail (or, without one, a box naming its provider) and a line that says
 * what plays, both linking to the issue's page, where the player is: a mail runs no player. Its
 * title and author below.
 */
function embedHtml(node: EmbedNode, body: MailBody): string {
  const page = escapeHtml(body.pageUrl);
  const mark = markOf(node.provider);
  const words = playWords(node.provider);
  const thumbnail = node.thumbnail && mailImage(node.thumbnail, 1200, COLUMN_WIDTH, body.siteUrl);
  const alt = node.title ? `${words}: ${node.title}` : words;
  const picture = thumbnail
    ? `<a href="${page}" style="display:block;text-decoration:none;"><img src="${escapeHtml(thumbnail.src)}" alt="${escapeHtml(alt)}" width="${thumbnail.width}" height="${thumbnail.height}" style="display:block;width:100%;max-width:${thumbnail.width}px;height:auto;border:0;"></a>`
    : `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td bgcolor="#1f1f1f" align="center" style="${STYLE.playerBox}background:#1f1f1f;"><a href="${page}" style="color:#ffffff;text-decoration:none;">${mark}${escapeHtml(EMBED_PROVIDERS[node.provider].name)}</a></td></tr></table>`;
  const title = node.title ? `<p style="${STYLE.cardHeading}">${escapeHtml(node.title)}</p>` : '';
  const author = node.author ? `<p style="${STYLE.cardSource}">${escapeHtml(node.author)}</p>` : '';
  const line = `<a href="${page}" style="${STYLE.play}">${mark}${escapeHtml(words)}</a>${title}${author}`;
  // A post (on X, Bluesky…) without a picture is words: a bordered card, as a bookmark is.
  if (!thumbnail && !mark) {
    return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="${STYLE.cardTable}"><tr><td style="${STYLE.cardCell}">${line}</td></tr></table>`;
  }
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;font-family:Arial,Helvetica,sans-serif;"><tr><td style="padding:0;">${picture}</td></tr><tr><td style="padding:8px 0 0;">${line}</td></tr></table>`;
}

/** A bookmark as a bordered card linking to its page: title, description, site, and its image. */
function bookmarkHtml(node: BookmarkNode, body: MailBody): string {
  const url = escapeHtml(absolute(node.url, body.siteUrl));
  const source = node.siteName ?? hostOf(node.url);
  const description = node.description
    ? `<p style="${STYLE.cardText}">${escapeHtml(shortened(node.description, 200))}</p>`
    : '';
  const image = node.image && mailImage(node.image, 600, 160, body.siteUrl);
  const picture = image
    ? `<td width="${image.width}" valign="top" style="padding:0;width:${image.width}px;"><a href="${url}"><img src="${escapeHtml(image.src)}" alt="" width="${image.width}" height="${image.height}" style="display:block;width:${image.width}px;height:auto;border:0;"></a></td>`
    : '';
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="${STYLE.cardTable}"><tr><td valign="top" style="${STYLE.cardCell}"><a href="${url}" style="color:#141414;font-weight:bold;font-size:16px;line-height:1.35;text-decoration:none;">${escapeHtml(node.title)}</a>${description}<p style="${STYLE.cardSource}">${escapeHtml(source)}</p></td>${picture}</tr></table>`;
}

/** An audio or video file as a box linking to the issue's page, where it plays. */
function mediaHtml(node: MediaNode, body: MailBody): string {
  const page = escapeHtml(body.pageUrl);
  const title = node.title ? `<p style="${STYLE.cardHeading}">${escapeHtml(node.title)}</p>` : '';
  const caption = node.caption
    ? `<p style="${STYLE.cardText}">${escapeHtml(node.caption)}</p>`
    : '';
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="${STYLE.cardTable}"><tr><td style="${STYLE.cardCell}"><a href="${page}" style="${STYLE.play}">${PLAY} ${escapeHtml(mediaWords(node))}</a>${title}${caption}</td></tr></table>`;
}

/** A page's host without `www.`, for a bookmark whose site gave no name. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** Text cut at a word to at most `length` characters, with an ellipsis when cut. */
function shortened(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), length / 2)).trimEnd()}…`;
}

function blockHtml(nodes: readonly BlockNode[], body: MailBody): string {
  const { siteUrl } = body;
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'paragraph':
          return `<p style="${STYLE.p}">${inlineHtml(node.children, siteUrl)}</p>`;
        case 'heading': {
          const tag = `h${node.depth}`;
          const style = node.depth === 2 ? STYLE.h2 : STYLE.h3;
          return `<${tag} style="${style}">${inlineHtml(node.children, siteUrl)}</${tag}>`;
        }
        case 'list': {
          const tag = node.ordered ? 'ol' : 'ul';
          const start =
            (node.start !== null ? ` start="${node.start}"` : '') +
            (node.reversed ? ' reversed' : '');
          const items = node.children
            .map(
              (item) =>
                `<li style="margin:0 0 6px;">${blockHtml(item.children, body).replace(/<p style="[^"]*">([\s\S]*?)<\/p>/g, '$1 ')}</li>`,
            )
            .join('');
          return `<${tag}${start} style="margin:0 0 16px;padding-left:24px;">${items}</${tag}>`;
        }
        case 'blockquote':
          return `<blockquote style="${STYLE.quote}">${blockHtml(node.children, body)}</blockquote>`;
        case 'code':
          return `<pre style="${STYLE.pre}">${escapeHtml(node.value)}</pre>`;
        case 'thematicBreak':
          return '<hr style="border:none;border-top:1px solid #d8d1c2;margin:24px 0;">';
        case 'image': {
          // The JPEG copy a column's width twice over: Outlook for Windows shows no WebP.
          const image = mailImage(node, 1200, COLUMN_WIDTH, siteUrl);
          if (!image) return '';
          const caption = node.caption
            ? `<figcaption style="${STYLE.caption}">${escapeHtml(node.caption)}</figcaption>`
            : '';
          return `<figure style="margin:0 0 16px;"><img src="${escapeHtml(image.src)}" alt="${escapeHtml(node.alt)}" width="${image.width}" height="${image.height}" style="display:block;max-width:100%;height:auto;border:0;">${caption}</figure>`;
        }
        case 'remoteImage': {
          // Still at its old address (an import could not fetch it): its size is unknown.
          const caption = node.caption
            ? `<figcaption style="${STYLE.caption}">${escapeHtml(node.caption)}</figcaption>`
            : '';
          return `<figure style="margin:0 0 16px;"><img src="${escapeHtml(node.src)}" alt="${escapeHtml(node.alt)}" width="${COLUMN_WIDTH}" style="display:block;max-width:100%;height:auto;border:0;">${caption}</figure>`;
        }
        case 'audio':
        case 'video':
          return mediaHtml(node, body);
        case 'embed':
          return embedHtml(node, body);
        case 'bookmark':
          return bookmarkHtml(node, body);
        case 'table':
          return tableHtml(node, siteUrl);
        case 'footnotes': {
          const notes = node.children
            .map((note) => `<li style="margin:0 0 6px;">${blockHtml(note.children, body)}</li>`)
            .join('');
          return `<ol style="${STYLE.notes}">${notes}</ol>`;
        }
      }
    })
    .join('\n');
}

/** An HTML table, each column aligned as written (`align` too, for the mail readers that ignore styles). */
function tableHtml(table: TableNode, siteUrl: string): string {
  const row = (cells: readonly TableCell[], tag: 'th' | 'td') =>
    `<tr>${cells
      .map((cell, column) => {
        const align = table.align[column] ?? 'left';
        return `<${tag} align="${align}" style="${STYLE[tag]}text-align:${align};">${inlineHtml(cell, siteUrl)}</${tag}>`;
      })
      .join('')}</tr>`;
  const body = table.rows.map((cells) => row(cells, 'td')).join('');
  // A table without a header draws none; its caption goes above it, as the page draws it.
  const head = table.headless ? '' : `<thead>${row(table.head, 'th')}</thead>`;
  const caption = table.caption
    ? `<caption style="${STYLE.caption}text-align:left;">${inlineHtml(table.caption, siteUrl)}</caption>`
    : '';
  return `<div style="${STYLE.tableWrap}"><table cellpadding="0" cellspacing="0" style="${STYLE.table}">${caption}${head}${body ? `<tbody>${body}</tbody>` : ''}</table></div>`;
}

function inlineText(nodes: readonly InlineNode[], siteUrl: string): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
        case 'inlineCode':
          return node.value;
        case 'strong':
        case 'emphasis':
          return inlineText(node.children, siteUrl);
        case 'delete':
          return `~~${inlineText(node.children, siteUrl)}~~`;
        case 'footnoteReference':
          return `[${node.number}]`;
        case 'break':
          return '\n';
        case 'link': {
          const label = inlineText(node.children, siteUrl);
          const url = absolute(node.url, siteUrl);
          return label === url ? url : `${label} (${url})`;
        }
      }
    })
    .join('');
}

function blockText(nodes: readonly BlockNode[], body: MailBody, indent = ''): string {
  const { siteUrl } = body;
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'paragraph':
          return indent + inlineText(node.children, siteUrl);
        case 'heading':
          return `${inlineText(node.children, siteUrl).toUpperCase()}`;
        case 'list':
          return node.children
            .map((item, index) => {
              const step = node.reversed ? -index : index;
              const marker = node.ordered ? `${(node.start ?? 1) + step}. ` : '- ';
              return `${indent}${marker}${blockText(item.children, body).trim()}`;
            })
            .join('\n');
        case 'blockquote':
          return blockText(node.children, body, `${indent}> `);
        case 'code':
          return node.value;
        case 'thematicBreak':
          return '---';
        case 'image':
        case 'remoteImage':
          return `${indent}[Image: ${node.alt}${node.caption ? ` (${node.caption})` : ''}]`;
        case 'audio':
        case 'video':
          return `${indent}${mediaWords(node)}${node.title ? ` - ${node.title}` : ''}: ${body.pageUrl}`;
        case 'embed': {
          const about = [node.title, node.author].filter(Boolean).join(', ');
          const words = playWords(node.provider);
          return `${indent}${words}${about ? ` - ${about}` : ''}: ${body.pageUrl}`;
        }
        case 'bookmark':
          return `${indent}${node.title} (${node.siteName ?? hostOf(node.url)}): ${absolute(node.url, siteUrl)}`;
        case 'table':
          // A row a line, its cells apart: the columns cannot be lined up in every mail reader.
          return [
            ...(node.caption ? [indent + inlineText(node.caption, siteUrl)] : []),
            ...[...(node.headless ? [] : [node.head]), ...node.rows].map(
              (cells) => indent + cells.map((cell) => inlineText(cell, siteUrl)).join(' | '),
            ),
          ].join('\n');
        case 'footnotes':
          return [
            '---',
            ...node.children.map(
              (note) => `[${note.number}] ${blockText(note.children, body).trim()}`,
            ),
          ].join('\n');
      }
    })
    .join('\n\n');
}

/**
 * The issue as a mail, once for every recipient: an HTML part with inline styles, a plain-text
 * part, and a footer with the unsubscribe link. With `site.tracking`, the HTML part's links go
 * through the site and it carries an open pixel (docs/newsletter.md#opens-and-clicks); the
 * plain-text part's links stay as written.
 */
export function renderIssue(
  /** `path`: where the issue is on the site, when it is not the archive's (an article mailed). */
  issue: NewsletterIssue & { path?: string },
  site: IssueMailSite,
): RenderedIssue {
  const { siteUrl, siteName } = site;
  const footerText = site.footerText?.trim() ?? '';
  const webUrl = `${siteUrl}${issue.path ?? NEWSLETTER_PATHS.issue(issue.slug)}`;
  const unsubscribeUrl = `${siteUrl}${NEWSLETTER_PATHS.unsubscribe}#token=${TOKEN}`;
  const date = new Date(`${issue.publishedAt}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
  const accent =
    site.accentColor && /^#[0-9a-fA-F]{6}$/.test(site.accentColor) ? site.accentColor : null;
  const cardStyle = accent ? `${STYLE.card}border-left:4px solid ${accent};` : STYLE.card;
  const cards = issue.articles
    .map(
      (article) =>
        `<a href="${escapeHtml(siteUrl + article.path)}" style="${cardStyle}"><p style="${STYLE.cardTitle}">${escapeHtml(article.title)}</p><p style="${STYLE.cardSummary}">${escapeHtml(article.summary)}</p></a>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(issue.title)}</title></head>
<body style="${STYLE.body}"><div style="${STYLE.wrapper}${accent ? `border-top:6px solid ${accent};` : ''}">
${site.logoUrl ? `<p style="margin:8px 0 16px;"><a href="${escapeHtml(`${siteUrl}/`)}"><img src="${escapeHtml(site.logoUrl)}" alt="${escapeHtml(siteName)}" height="48" style="display:block;height:48px;width:auto;max-width:100%;border:0;"></a></p>\n` : ''}<p style="${STYLE.eyebrow}">${escapeHtml(siteName)} newsletter · ${escapeHtml(date)}</p>
<h1 style="${STYLE.title}">${escapeHtml(issue.title)}</h1>
${blockHtml(issue.body.children, { siteUrl, pageUrl: webUrl })}
${cards ? `<h2 style="${STYLE.h2}">Read on ${escapeHtml(siteName)}</h2>\n${cards}` : ''}
<div style="${STYLE.footer}">
<p style="margin:0 0 8px;">You get this because you subscribed to ${escapeHtml(theNewsletterOf(siteName))}. <a href="${escapeHtml(webUrl)}" style="${STYLE.link}">Read it on the site</a>.</p>
<p style="margin:0;"><a href="${unsubscribeUrl}" style="${STYLE.link}">Unsubscribe</a> in one click.</p>
${footerText ? `<p style="margin:8px 0 0;white-space:pre-line;">${escapeHtml(footerText)}</p>\n` : ''}</div></div></body></html>
`;
  const cardText = issue.articles
    .map((article) => `- ${article.title}: ${siteUrl}${article.path}`)
    .join('\n');
  const text = [
    `${siteName} newsletter · ${date}`,
    issue.title.toUpperCase(),
    blockText(issue.body.children, { siteUrl, pageUrl: webUrl }),
    cardText ? `Read on ${siteName}:\n${cardText}` : '',
    `--\nYou get this because you subscribed to ${theNewsletterOf(siteName)}.\nRead it on the site: ${webUrl}\nUnsubscribe in one click: ${unsubscribeUrl}`,
    footerText,
  ]
    .filter(Boolean)
    .join('\n\n');
  const rendered = { subject: issue.title, html, text: `${text}\n` };
  return site.tracking ? { ...rendered, ...withTracking(html) } : rendered;
}

/** The rendered issue for one subscriber: their unsubscribe token in the footer and the headers. */
export function issueMailFor(
  rendered: RenderedIssue,
  site: IssueMailSite,
  to: string,
  unsubscribeToken: string,
  /** The delivery it is: its pixel and links count for it (a test copy's count for none). */
  deliveryId = TEST_COPY_DELIVERY,
): Mail {
  const { tracking } = site;
  const links = rendered.links ?? [];
  const pixel = tracking
    ? `<img src="${escapeHtml(tracking.openUrl(deliveryId))}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;">`
    : '';
  const html = rendered.html
    .replace(OPEN_PIXEL, () => pixel)
    .replace(CLICK, (_, index: string) => {
      const url = links[Number(index)] ?? '';
      return escapeHtml(tracking ? tracking.clickUrl(deliveryId, url) : url);
    });
  const oneClickUrl = `${site.siteUrl}/api/newsletter/unsubscribe?token=${encodeURIComponent(unsubscribeToken)}`;
  return {
    to,
    subject: rendered.subject,
    html: html.replaceAll(TOKEN, () => unsubscribeToken),
    text: rendered.text.replaceAll(TOKEN, () => unsubscribeToken),
    headers: {
      // RFC 2369 and RFC 8058: mail clients show an Unsubscribe button that POSTs to the https
      // address (no session needed); the mailto is for clients that only know that kind.
      'List-Unsubscribe': `<${oneClickUrl}>, <mailto:${site.unsubscribeMailbox}?subject=unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-Id': `${site.siteName} newsletter <newsletter.${new URL(site.siteUrl).hostname}>`,
    },
  };
}

/** The bare address in MAIL_FROM ("Cohort <news@example.com>" → news@example.com). */
export function mailboxOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}
