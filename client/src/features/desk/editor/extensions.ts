import { Node, type AnyExtension } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { Markdown } from '@tiptap/markdown';
import StarterKit from '@tiptap/starter-kit';
import { MEMBERS_DIVIDER, splitAtDivider } from '../../../../../contract/posts';

/**
 * The members-only divider (contract/posts.ts) as a block the writer sees and can move or delete:
 * "Members only from here". In Markdown it is its HTML comment on a line of its own.
 */
export const MembersDivider = Node.create({
  name: 'membersDivider',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  parseHTML() {
    return [{ tag: 'div[data-members-divider]' }];
  },
  renderHTML() {
    return [
      'div',
      { 'data-members-divider': '', class: 'editor__divider', contenteditable: 'false' },
      'Members only from here',
    ];
  },
  markdownTokenName: 'html',
  parseMarkdown: (token, helpers) =>
    splitAtDivider(String(token.raw ?? '').trim()).after !== null
      ? helpers.createNode('membersDivider')
      : // Any other HTML is not kept (the site refuses it): its text, if any, stays.
        helpers.createTextNode(String(token.text ?? '')),
  renderMarkdown: () => MEMBERS_DIVIDER,
});

/**
 * What a post's body can hold in the editor: exactly what the site draws (contract/markdown-tree):
 * headings ## to ####, bold, italic, links, lists, quotes, code, rules, uploaded images with alt
 * text and a caption (Markdown's image title), and the members-only divider. Markdown in, Markdown
 * out (@tiptap/markdown); shortcuts as you type come with each node (`## `, `- `, `1. `, `> `).
 */
export function bodyExtensions(): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: { levels: [2, 3, 4] },
      // Not drawn by the site: no underline or strike-through to write.
      underline: false,
      strike: false,
      link: {
        openOnClick: false,
        autolink: true,
        protocols: ['http', 'https'],
        isAllowedUri: (url) => /^(https?:\/\/|\/(?!\/))/i.test(url),
      },
    }),
    Image.configure({ inline: false, allowBase64: false }),
    MembersDivider,
    Markdown.configure({ markedOptions: { gfm: true } }),
  ];
}
