import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { bodyExtensions } from './extensions';
import { LinkDialog, type LinkChoice } from './link-dialog';
import { countWords } from './post-form';
import { uploadImage } from './post-api';

/** Image types the server takes (it checks the bytes too). */
const IMAGE_TYPES = 'image/jpeg,image/png,image/webp,image/avif,image/gif';

/**
 * The body's rich-text editor (TipTap on ProseMirror, decision note 0017): Markdown in and out, a toolbar
 * that works by keyboard, Markdown shortcuts as you type, images uploaded by the file input, by
 * dropping or by pasting, each with its alt text and caption under it (image-figure.tsx), and a
 * word count.
 */
export function BodyEditor({
  markdown,
  onChange,
  onError,
}: {
  /** The text it starts from: the page draws a new editor (a new `key`) to replace it. */
  markdown: string;
  onChange: (markdown: string) => void;
  onError: (message: string) => void;
}) {
  const [uploading, setUploading] = useState(0);
  /** The link dialog, open: the link under the selection (an empty address for a new one). */
  const [linking, setLinking] = useState<LinkChoice | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const uploadRef = useRef<(files: readonly File[], at?: number) => void>(() => {});
  // The editor is made once: its handlers call the latest props through this.
  const onChangeRef = useRef(onChange);
  useLayoutEffect(() => {
    onChangeRef.current = onChange;
  });

  const editor = useEditor({
    extensions: bodyExtensions(),
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
        const files = imagesIn(event.dataTransfer);
        if (files.length === 0) return false;
        event.preventDefault();
        // Where it was dropped.
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        uploadRef.current(files, at);
        return true;
      },
      handlePaste: (_view, event) => {
        const files = imagesIn(event.clipboardData);
        if (files.length === 0) return false;
        event.preventDefault();
        uploadRef.current(files);
        return true;
      },
    },
    onUpdate: ({ editor: changed }) => onChangeRef.current(changed.getMarkdown()),
  });

  // An image on its way to the server is not in the body yet: closing the page now would lose it.
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
      uploadImage(file)
        .then((image) => {
          // Where it was dropped, else after the selection, never over it: the writer may have
          // selected text while it uploaded.
          editor
            .chain()
            .focus()
            .insertContentAt(
              Math.min(position ?? editor.state.selection.to, editor.state.doc.content.size),
              {
                type: 'image',
                attrs: { src: image.url, alt: '' },
              },
            )
            .run();
          // Selected, and straight to its alt text, under it (image-figure.tsx): a post with an
          // image that has none cannot be published.
          let at: number | null = null;
          editor.state.doc.descendants((node, pos) => {
            if (node.type.name === 'image' && node.attrs.src === image.url) at = pos;
          });
          if (at === null) return;
          const figure = at;
          editor.commands.setNodeSelection(figure);
          requestAnimationFrame(() => {
            const drawn = editor.view.nodeDOM(figure);
            if (drawn instanceof HTMLElement) {
              drawn.querySelector<HTMLInputElement>('input[data-image-alt]')?.focus();
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
          aria-label="Insert image"
          title="Insert image"
          onClick={() => fileInput.current?.click()}
        >
          Image
        </button>
        <input
          ref={fileInput}
          type="file"
          accept={IMAGE_TYPES}
          aria-label="Upload image"
          className="visually-hidden"
          // The Image button opens it: one stop for the keyboard, not two.
          tabIndex={-1}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            upload(files);
          }}
        />
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
      <EditorContent editor={editor} />
      <p className="editor__count" aria-live="polite">
        {words} {words === 1 ? 'word' : 'words'}
        {uploading > 0 && ` · uploading ${uploading} image${uploading === 1 ? '' : 's'}…`}
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

function imagesIn(data: DataTransfer | null): File[] {
  return [...(data?.files ?? [])].filter((file) => file.type.startsWith('image/'));
}
