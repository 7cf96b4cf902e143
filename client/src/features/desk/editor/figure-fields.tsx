import type { ReactNodeViewProps } from '@tiptap/react';

/**
 * The fields beside a figure of the body (an image, a sound or a video): its name for readers who
 * cannot see or hear it (the image's alt text, the player's title), then its caption, each the
 * node's attribute named. Not the body's text: typing here changes the node's attributes, not the
 * document. `mark` is the attribute body-editor.tsx finds a new upload's name field by, to focus it.
 */
export function FigureFields({
  node,
  updateAttributes,
  label,
  name,
  caption,
  mark,
}: Pick<ReactNodeViewProps, 'node' | 'updateAttributes'> & {
  label: string;
  name: 'alt' | 'title';
  caption: 'title' | 'caption';
  mark: 'data-image-alt' | 'data-media-title';
}) {
  const text = (attribute: string) => {
    const value: unknown = node.attrs[attribute];
    return typeof value === 'string' ? value : '';
  };
  return (
    <div className="editor__figure-fields" contentEditable={false}>
      <label className="desk-field">
        <span>{label}</span>
        <input
          {...{ [mark]: '' }}
          value={text(name)}
          onChange={(event) => updateAttributes({ [name]: event.target.value })}
        />
      </label>
      <label className="desk-field">
        <span>Caption (optional)</span>
        <input
          value={text(caption)}
          // An emptied caption is none.
          onChange={(event) => updateAttributes({ [caption]: event.target.value || null })}
        />
      </label>
    </div>
  );
}
