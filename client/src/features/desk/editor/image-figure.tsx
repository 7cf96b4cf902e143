import { NodeViewWrapper, type ReactNodeViewProps } from '@tiptap/react';

/**
 * An image in the body as the editor draws it: the picture, and under it, where the site puts the
 * caption, its alt text and caption to edit (Markdown's `![alt](src "caption")`: the node's `alt`
 * and `title`, extensions.ts). Next to the image they belong to, on a phone as on a desk; a new
 * upload's alt text takes the focus (body-editor.tsx), for a post with an image without one cannot
 * be published.
 */
export function ImageFigure({ node, updateAttributes }: ReactNodeViewProps) {
  const src = typeof node.attrs.src === 'string' ? node.attrs.src : '';
  const alt = typeof node.attrs.alt === 'string' ? node.attrs.alt : '';
  const caption = typeof node.attrs.title === 'string' ? node.attrs.title : '';
  return (
    <NodeViewWrapper className="editor__figure">
      <img src={src} alt={alt} data-drag-handle="" />
      {/* Not the body's text: typing here changes the image's attributes, not the document. */}
      <div className="editor__figure-fields" contentEditable={false}>
        <label className="desk-field">
          <span>Alt text (what the image shows, for readers who cannot see it)</span>
          <input
            data-image-alt=""
            value={alt}
            onChange={(event) => updateAttributes({ alt: event.target.value })}
          />
        </label>
        <label className="desk-field">
          <span>Caption (optional)</span>
          <input
            value={caption}
            onChange={(event) => updateAttributes({ title: event.target.value || null })}
          />
        </label>
      </div>
    </NodeViewWrapper>
  );
}
