import { Selection } from '@tiptap/pm/state';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { MEDIA_TYPES } from '../../../../../contract/media';
import { EmbedDialog } from './embed-dialog';
import { bodyExtensions } from './extensions';
import { LinkDialog, type LinkChoice } from './link-dialog';
import { countWords } from './post-form';
import { uploadFile } from './post-api';

/**
 * The files a post's body takes, as the file picker offers them: images, and audio and video by
 * their type and their extension (some systems know an .m4a by neither name). The server checks
 * the bytes.
 */
const UPLOAD_TYPES = [
  'image/jpeg,image/png,image/webp,image/avif,image/gif',
  ...new Set(Object.values(MEDIA_TYPES).map((type) => type.mime)),
  'audio/x-m4a',
  ...Object.keys(MEDIA_TYPES).map((extension) => `.${extension}`),
].join(',');

/**
 * The body's rich-text editor (TipTap on ProseMirror, decision note 0017): Markdown in and out, a toolbar
 * that works by keyboard, Markdown shortcuts as you type, images, audio and video uploaded by
 * the file input, by dropping or by pasting, each with its words to edit under it (image-figure.tsx,
 * media-figure.tsx), cards from a pasted address or the Embed dialog (cards-and-media.ts), and a
 * word count.
 */
export function BodyEditor({
  markdown,
  cardTitle,
  onChange,
  onError,
}: {
  /** The text it starts from: the page draws a new editor (a new `key`) to replace it. */
  markdown: string;
  /** The title the server read of a card's address, when it has one (read as the editor is made). */
  cardTitle?: (url: string) => string | null;
  onChange: (markdown: string) => void;
  onError: (message: string) => void;
}) {
  const [uploading, setUploading] = useState(0);
  /** The link dialog, open: the link under the selection (an empty address for a new one). */
  const [linking, setLinking] = useState<LinkChoice | null>(null);
  /** The Embed dialog, open. */
  const [embedding, setEmbedding] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const uploadRef = useRef<(files: readonly File[], at?: number) => void>(() => {});
  // The editor is made once: its handlers call the latest props through this.
  const onChangeRef = useRef(onChange);
  useLayoutEffect(() => {
    onChangeRef.current = onChange;
  });

  const editor = useEditor({
    extensions: bodyExtensions({
      ...(cardTitle && { cardTitle }),
      onEmbedCommand: () => setEmbedding(true),
    }),
    content: markdown,
    contentType: 'markdown',
    immediatelyRender: false,
    editorProps: {
      // The caret's line is kept clear of what stays on screen over the text: the toolbar stuck
      // at the top, and on a phone the Save / Preview / Publish bar at the bottom (editor.css).
      scrollMargin: { top: 72, right: 0, bottom: 88, left: 0 },
      scrollThreshold: { top: 72, right: 0, bottom: 88, left: 0 },
      attributes: {
        'aria-label': 'Body',
        'aria-multiline': 'true',
        role: 'textbox',
        class: 'editor__body prose',
      },
      handleDrop: (view, event) => {
        const files = uploadsIn(event.dataTransfer);
        if (files.length === 0) return false;
        event.preventDefault();
        // Where it was dropped.
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        uploadRef.current(files, at);
        return true;
      },
      handlePaste: (_view, event) => {
        const files = uploadsIn(event.clipboardData);
        if (files.length === 0) return false;
        event.preventDefault();
        uploadRef.current(files);
        return true;
      },
    },
    onUpdate: ({ editor: changed }) => onChangeRef.current(changed.getMarkdown()),
  });

  // A file on its way to the server is not in the body yet: closing the page now would lose it.
  useEffect(() => {
    if (uploading === 0) return;
    const wait = (event: Event) => event.preventDefault();
    window.addEventListener('beforeunload', wait);
    return () => window.removeEventListener('beforeunload', wait);
  }, [uploading]);

  // The word count, from the document as loaded and after every change.
  const [words, setWords] = useState(0);
  useEffect(() => {
    if (!editor) return;
    const count = () => setWords(countWords(editor.getText()));
    count();
    editor.on('update', count);
    return () => {
      editor.off('update', count);
    };
  }, [editor]);

  const upload = (files: readonly File[], position?: number) => {
    if (!editor) return;
    for (const file of files) {
      setUploading((n) => n + 1);
      uploadFile(file)
        .then((uploaded) => {
          const image = uploaded.kind === 'image';
          // Where it was dropped, else after the selection, never over it: the writer may have
          // selected text while it uploaded.
          editor
            .chain()
            .focus()
            .insertContentAt(
              Math.min(position ?? editor.state.selection.to, editor.state.doc.content.size),
              image
                ? { type: 'image', attrs: { src: uploaded.url, alt: '' } }
                : { type: 'media', attrs: { src: uploaded.url, title: '', caption: null } },
            )
            .run();
          // Selected, and straight to its words, under it: an image's alt text (a post with an
          // image that has none cannot be published), a sound or video's title.
          let at: number | null = null;
          editor.state.doc.descendants((node, pos) => {
            if (node.attrs.src === uploaded.url) at = pos;
          });
          if (at === null) return;
          const figure = at;
          editor.commands.setNodeSelection(figure);
          requestAnimationFrame(() => {
            const drawn = editor.view.nodeDOM(figure);
            if (drawn instanceof HTMLElement) {
              drawn
                .querySelector<HTMLInputElement>(
                  image ? 'input[data-image-alt]' : 'input[data-media-title]',
                )
                ?.focus();
            }
          });
        })
        .catch((error: unknown) =>
          onError(`${file.name}: ${error instanceof Error ? error.message : 'upload failed'}`),
        )
        .finally(() => setUploading((n) => n - 1));
    }
  };
  useLayoutEffect(() => {
    uploadRef.current = upload;
  });

  const state =
    useEditorState({
      editor,
      selector: ({ editor: e }) => {
        if (!e) return null;
        try {
          return toolbarState(e);
        } catch {
          // Before its view is mounted the editor cannot say what is selected.
          return null;
        }
      },
    }) ?? EMPTY_STATE;

  if (!editor) return <div className="editor__body editor__body--loading" />;

  const tool = (label: string, pressed: boolean | null, run: () => void, text: string) => (
    <button
      type="button"
      className="editor__tool"
      aria-label={label}
      title={label}
      {...(pressed !== null && { 'aria-pressed': pressed })}
      onClick={run}
    >
      {text}
    </button>
  );
  const chain = () => editor.chain().focus();

  const editLink = () => {
    const { href, target } = editor.getAttributes('link');
    setLinking({
      href: typeof href === 'string' ? href : '',
      target: target === '_blank' || target === '_self' ? target : null,
    });
  };
  /**
   * A card, on a line of its own in the body: in place of the empty line the cursor is on, else
   * after the block it is in (never inside a list or between words), with a line after it to
   * write on.
   */
  const insertCard = (url: string) => {
    setEmbedding(false);
    const { $from } = editor.state.selection;
    const block = $from.depth > 0 ? $from.node(1) : null;
    const start = $from.depth > 0 ? $from.before(1) : editor.state.selection.to;
    const emptyLine = block?.type.name === 'paragraph' && block.content.size === 0;
    const end = block ? start + block.nodeSize : start;
    const at = emptyLine ? { from: start, to: end } : end;
    const last = end >= editor.state.doc.content.size;
    chain()
      .insertContentAt(at, [
        { type: 'embedCard', attrs: { url } },
        ...(last ? [{ type: 'paragraph' }] : []),
      ])
      .command(({ tr }) => {
        // The cursor after the card: one step past where it was put.
        tr.setSelection(Selection.near(tr.doc.resolve(emptyLine ? start + 1 : end + 1), 1));
        return true;
      })
      .run();
  };

  const closeLink = (change?: (run: ReturnType<typeof chain>) => ReturnType<typeof chain>) => {
    setLinking(null);
    const run = chain().extendMarkRange('link');
    (change ? change(run) : run).run();
  };

  return (
    <div className="editor">
      <div className="editor__toolbar" role="toolbar" aria-label="Formatting">
        {tool('Heading', state.h2, () => chain().toggleHeading({ level: 2 }).run(), 'H2')}
        {tool('Subheading', state.h3, () => chain().toggleHeading({ level: 3 }).run(), 'H3')}
        {tool('Bold', state.bold, () => chain().toggleBold().run(), 'B')}
        {tool('Italic', state.italic, () => chain().toggleItalic().run(), 'I')}
        {tool('Strikethrough', state.strike, () => chain().toggleStrike().run(), 'S')}
        {tool('Link', state.link, editLink, 'Link')}
        {tool('Bulleted list', state.bullet, () => chain().toggleBulletList().run(), '•')}
        {tool('Numbered list', state.ordered, () => chain().toggleOrderedList().run(), '1.')}
        {tool('Quote', state.quote, () => chain().toggleBlockquote().run(), '❝')}
        {tool('Horizontal rule', null, () => chain().setHorizontalRule().run(), '—')}
        {tool(
          'Members only from here',
          null,
          // A paragraph after it, for the cursor: typing goes on below the line, not over it.
          () =>
            chain()
              .insertContent([{ type: 'membersDivider' }, { type: 'paragraph' }])
              .run(),
          'Members',
        )}
        <button
          type="button"
          className="editor__tool"
          aria-label="Insert image, audio or video"
          title="Insert image, audio or video"
          onClick={() => fileInput.current?.click()}
        >
          Image
        </button>
        <input
          ref={fileInput}
          type="file"
          accept={UPLOAD_TYPES}
          aria-label="Upload image, audio or video"
          className="visually-hidden"
          // The Image button opens it: one stop for the keyboard, not two.
          tabIndex={-1}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            upload(files);
          }}
        />
        {tool('Embed a video, post or page', null, () => setEmbedding(true), 'Embed')}
        {tool('Undo', null, () => chain().undo().run(), '↶')}
        {tool('Redo', null, () => chain().redo().run(), '↷')}
      </div>
      {state.sourceKind && (
        <div className="editor__image-fields">
          <label className="desk-field">
            <span>
              {state.sourceKind === 'table' ? 'The table' : 'The footnote'}, in Markdown (it shows
              as written on the site)
            </span>
            <textarea
              className="editor__source-text"
              spellCheck={false}
              rows={Math.min(12, state.sourceText.split('\n').length + 1)}
              value={state.sourceText}
              onChange={(event) =>
                editor
                  .chain()
                  .updateAttributes('markdownSource', { source: event.target.value })
                  .run()
              }
            />
          </label>
        </div>
      )}
      {linking !== null && (
        <LinkDialog
          current={state.link ? linking : null}
          onSave={(link) => closeLink((run) => run.setLink(link))}
          onRemove={() => closeLink((run) => run.unsetLink())}
          onCancel={() => closeLink()}
        />
      )}
      {embedding && (
        <EmbedDialog
          onInsert={insertCard}
          onCancel={() => {
            setEmbedding(false);
            chain().run();
          }}
        />
      )}
      <EditorContent editor={editor} />
      <p className="editor__count" aria-live="polite">
        {words} {words === 1 ? 'word' : 'words'}
        {uploading > 0 && ` · uploading ${uploading} file${uploading === 1 ? '' : 's'}…`}
      </p>
    </div>
  );
}

/** What the toolbar shows of the selection. */
function toolbarState(e: Editor) {
  return {
    h2: e.isActive('heading', { level: 2 }),
    h3: e.isActive('heading', { level: 3 }),
    bold: e.isActive('bold'),
    italic: e.isActive('italic'),
    strike: e.isActive('strike'),
    link: e.isActive('link'),
    bullet: e.isActive('bulletList'),
    ordered: e.isActive('orderedList'),
    quote: e.isActive('blockquote'),
    // A table or a footnote's text kept as Markdown (extensions.ts), edited as such when selected.
    sourceKind: e.isActive('markdownSource')
      ? String(e.getAttributes('markdownSource').kind ?? 'table')
      : null,
    sourceText: String(e.getAttributes('markdownSource').source ?? ''),
  };
}
const EMPTY_STATE: ReturnType<typeof toolbarState> = {
  h2: false,
  h3: false,
  bold: false,
  italic: false,
  strike: false,
  link: false,
  bullet: false,
  ordered: false,
  quote: false,
  sourceKind: null,
  sourceText: '',
};

/** The images, sounds and videos dropped or pasted. */
function uploadsIn(data: DataTransfer | null): File[] {
  return [...(data?.files ?? [])].filter((file) => /^(image|audio|video)\//.test(file.type));
}
