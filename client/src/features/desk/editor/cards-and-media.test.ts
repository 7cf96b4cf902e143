import { getSchema, type JSONContent } from '@tiptap/core';
import { MarkdownManager } from '@tiptap/markdown';
import { history, undo } from '@tiptap/pm/history';
import { EditorState, TextSelection, type Transaction } from '@tiptap/pm/state';
import { describe, expect, it } from 'vitest';
// eslint-disable-next-line no-restricted-imports -- the editor's cards and players held to the server's renderer
import { convertMarkdownToTree } from '../../../../../server/src/content/markdown-to-tree';
import { pasteCardAddress } from './cards-and-media';
import { bodyExtensions } from './extensions';

// Cards and uploaded audio and video as the editor reads and writes them (decision note 0029): an
// address alone on its line is a card and comes back as that line; an upload's audio or video is
// a player and comes back as its `![title](src "caption")` line.

const manager = () => new MarkdownManager({ extensions: bodyExtensions() });
const roundTrip = (markdown: string) => {
  const m = manager();
  return m.serialize(m.parse(markdown));
};

const YOUTUBE = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const AUDIO = '/uploads/abcdefghij0123456789-245s.mp3';
const VIDEO = '/uploads/abcdefghij0123456789-1280x720-62s.mp4';
const IMAGE = '/uploads/0123456789abcdefghij-1600x1067.webp';

describe('cards and players in the editor’s Markdown', () => {
  const body = [
    'An interview, then the episode.',
    YOUTUBE,
    `![A rally at dusk](${IMAGE} "Outside the hall")`,
    `![Episode 12: \\[live\\]](${AUDIO} "Recorded in “the” hall, \\"live\\"")`,
    `![The march](${VIDEO})`,
    'https://example.com/a_long-read?id=7',
    'The end.',
  ].join('\n\n');

  it('reads a card line, an image, an audio line and a video line as their nodes, and writes back the same Markdown', () => {
    const doc = manager().parse(body);
    expect((doc.content ?? []).map((node) => [node.type, node.attrs])).toEqual([
      ['paragraph', undefined],
      ['embedCard', { url: YOUTUBE }],
      ['image', { src: IMAGE, alt: 'A rally at dusk', title: 'Outside the hall' }],
      [
        'media',
        { src: AUDIO, title: 'Episode 12: [live]', caption: 'Recorded in “the” hall, "live"' },
      ],
      ['media', { src: VIDEO, title: 'The march', caption: null }],
      ['embedCard', { url: 'https://example.com/a_long-read?id=7' }],
      ['paragraph', undefined],
    ]);
    expect(roundTrip(body)).toBe(body);
  });

  it('draws the same page from what it writes: the embed, the players, their titles and captions', () => {
    const tree = convertMarkdownToTree(roundTrip(body));
    expect(tree).toEqual(convertMarkdownToTree(body));
    expect(tree.children.map((node) => node.type)).toEqual([
      'paragraph',
      'embed',
      'image',
      'audio',
      'video',
      // Nothing read of that page: a link to it.
      'paragraph',
      'paragraph',
    ]);
    expect(tree.children[3]).toMatchObject({
      title: 'Episode 12: [live]',
      caption: 'Recorded in “the” hall, "live"',
      duration: 245,
    });
  });

  it('leaves an address that is not alone on its line, or written as a link, a link', () => {
    for (const markdown of [
      `[${YOUTUBE}](${YOUTUBE})`,
      `Watch ${YOUTUBE}`,
      `Words above it\n${YOUTUBE}`,
      `${YOUTUBE}\nwords under it`,
      `- ${YOUTUBE}`,
    ]) {
      const doc = manager().parse(markdown);
      expect(JSON.stringify(doc), markdown).not.toContain('embedCard');
      expect(convertMarkdownToTree(roundTrip(markdown)).children[0]?.type).not.toBe('embed');
    }
    // In a quote, as on the site, it is a card.
    expect(roundTrip(`> ${YOUTUBE}\n\nAfter.`)).toBe(`> ${YOUTUBE}\n\nAfter.`);
  });
});

describe('an address pasted on an empty line', () => {
  const schema = getSchema(bodyExtensions());
  const paragraph = (text?: string): JSONContent => ({
    type: 'paragraph',
    content: text ? [{ type: 'text', text }] : [],
  });

  /** An editor's state with its undo history, the cursor on the empty line after `Before.`. */
  function editing(lines: JSONContent[]) {
    const doc = schema.nodeFromJSON({ type: 'doc', content: lines });
    let state = EditorState.create({ schema, doc, plugins: [history()] });
    state = state.apply(state.tr.setSelection(TextSelection.create(state.doc, 10)));
    return {
      get: () => state,
      dispatch: (tr: Transaction) => {
        state = state.apply(tr);
      },
      markdown: () => manager().serialize(state.doc.toJSON() as JSONContent),
    };
  }

  it('becomes a card, and undo right after makes it the link it would have been', () => {
    const editor = editing([paragraph('Before.'), paragraph(), paragraph('After.')]);
    expect(pasteCardAddress(editor.get, editor.dispatch, `  ${YOUTUBE}\n`)).toBe(true);
    expect(editor.markdown()).toBe(`Before.\n\n${YOUTUBE}\n\nAfter.`);
    expect(convertMarkdownToTree(editor.markdown()).children[1]?.type).toBe('embed');
    // The cursor waits on the next line.
    expect(editor.get().selection.$from.parent.textContent).toBe('After.');

    expect(undo(editor.get(), editor.dispatch)).toBe(true);
    expect(editor.markdown()).toBe(`Before.\n\n[${YOUTUBE}](${YOUTUBE})\n\nAfter.`);
    expect(convertMarkdownToTree(editor.markdown()).children[1]).toEqual({
      type: 'paragraph',
      children: [{ type: 'link', url: YOUTUBE, children: [{ type: 'text', value: YOUTUBE }] }],
    });
    // And once more: the paste itself is undone.
    undo(editor.get(), editor.dispatch);
    expect(editor.markdown()).toBe('Before.\n\nAfter.');
  });

  it('leaves a line to write on when the card ends the body', () => {
    const editor = editing([paragraph('Before.'), paragraph()]);
    pasteCardAddress(editor.get, editor.dispatch, YOUTUBE);
    const last = editor.get().doc.lastChild;
    expect(last?.type.name).toBe('paragraph');
    expect(editor.get().selection.$from.parent).toBe(last);
  });

  it('is left to the editor’s own paste in words, over a selection, or for anything but an address', () => {
    const inWords = editing([paragraph('Before.'), paragraph('x')]);
    expect(pasteCardAddress(inWords.get, inWords.dispatch, YOUTUBE)).toBe(false);
    const empty = editing([paragraph('Before.'), paragraph()]);
    expect(pasteCardAddress(empty.get, empty.dispatch, 'not an address')).toBe(false);
    expect(pasteCardAddress(empty.get, empty.dispatch, `${YOUTUBE} and more`)).toBe(false);
    expect(pasteCardAddress(empty.get, empty.dispatch, 'javascript:alert(1)')).toBe(false);
    const selected = editing([paragraph('Before.'), paragraph()]);
    selected.dispatch(
      selected.get().tr.setSelection(TextSelection.create(selected.get().doc, 1, 7)),
    );
    expect(pasteCardAddress(selected.get, selected.dispatch, YOUTUBE)).toBe(false);
    expect(empty.markdown()).toBe('Before.');
  });
});
