/**
 * A comment's text to edit, written back as the Markdown it came from (its HTML is all the page
 * has): paragraphs, **bold**, *italic*, [links](…), > quotes and `code`, the subset comments
 * allow (docs/comments.md). In the browser only: it reads the HTML with the DOM's own parser.
 */
export function editableText(html: string): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  return blocks(body).trim();
}

function blocks(parent: Node): string {
  const parts: string[] = [];
  let inline = '';
  const flush = () => {
    if (inline.trim()) parts.push(inline.trim());
    inline = '';
  };
  for (const node of parent.childNodes) {
    if (!(node instanceof Element)) {
      inline += node.textContent ?? '';
      continue;
    }
    switch (node.tagName) {
      case 'P':
        flush();
        parts.push(inlines(node));
        break;
      case 'BLOCKQUOTE':
        flush();
        parts.push(
          blocks(node)
            .split('\n')
            .map((line) => (line ? `> ${line}` : '>'))
            .join('\n'),
        );
        break;
      case 'PRE':
        flush();
        parts.push(`\`\`\`\n${(node.textContent ?? '').replace(/\n$/, '')}\n\`\`\``);
        break;
      case 'UL':
      case 'OL':
        flush();
        parts.push(
          [...node.children]
            .map(
              (item, index) => `${node.tagName === 'OL' ? `${index + 1}.` : '-'} ${inlines(item)}`,
            )
            .join('\n'),
        );
        break;
      default:
        inline += inlines(node);
    }
  }
  flush();
  return parts.join('\n\n');
}

function inlines(parent: Node): string {
  let text = '';
  for (const node of parent.childNodes) {
    if (!(node instanceof Element)) {
      text += node.textContent ?? '';
      continue;
    }
    const inner = inlines(node);
    switch (node.tagName) {
      case 'STRONG':
      case 'B':
        text += `**${inner}**`;
        break;
      case 'EM':
      case 'I':
        text += `*${inner}*`;
        break;
      case 'CODE':
        text += `\`${node.textContent ?? ''}\``;
        break;
      case 'A': {
        const href = node.getAttribute('href') ?? '';
        text += href && href !== inner ? `[${inner}](${href})` : inner;
        break;
      }
      case 'BR':
        text += '\n';
        break;
      default:
        text += inner;
    }
  }
  return text;
}
