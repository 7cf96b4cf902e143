import { NodeViewWrapper, type ReactNodeViewProps } from '@tiptap/react';
import { FigureFields } from './figure-fields';

/**
 * An image in the body as the editor draws it: the picture, and under it, where the site puts the
 * caption, its alt text and caption to edit (Markdown's `![alt](src "caption")`: the node's `alt`
 * and `title`, extensions.ts). Next to the image they belong to, on a phone as on a desk; a new
 * upload's alt text takes the focus (body-editor.tsx), for a post with an image without one cannot
 * be published.
 */
export function ImageFigure(props: ReactNodeViewProps) {
  const { node } = props;
  const src = typeof node.attrs.src === 'string' ? node.attrs.src : '';
  const alt = typeof node.attrs.alt === 'string' ? node.attrs.alt : '';
  return (
    <NodeViewWrapper className="editor__figure">
      <img src={src} alt={alt} data-drag-handle="" />
      <FigureFields
        {...props}
        label="Alt text (what the image shows, for readers who cannot see it)"
        name="alt"
        caption="title"
        mark="data-image-alt"
      />
    </NodeViewWrapper>
  );
}
