import { NodeViewWrapper, type ReactNodeViewProps } from '@tiptap/react';
import { formatDuration, parseMediaUrl } from '../../../../../contract/media';
import { FigureFields } from './figure-fields';

/**
 * An uploaded audio or video file in the body as the editor draws it: a player of the site's own
 * file (nothing loads before it is played), and beside it its title, which screen readers give
 * as the player's name, and its caption (Markdown's `![title](src "caption")`: the node's `title`
 * and `caption`, cards-and-media.ts). A new upload's title takes the focus (body-editor.tsx).
 */
export function MediaFigure(props: ReactNodeViewProps) {
  const { node } = props;
  const src = typeof node.attrs.src === 'string' ? node.attrs.src : '';
  const title = typeof node.attrs.title === 'string' ? node.attrs.title : '';
  const media = parseMediaUrl(src);
  const kind = media?.kind === 'video' ? 'Video' : 'Audio';
  const length = media?.duration != null ? `, ${formatDuration(media.duration)}` : '';
  return (
    <NodeViewWrapper className="editor__figure editor__media" data-media={src}>
      <div className="editor__media-player" contentEditable={false} data-drag-handle="">
        <span className="editor__media-kind">
          {kind}
          {length}
        </span>
        {media?.kind === 'video' ? (
          <video controls preload="none" src={src} aria-label={title || 'Video'} />
        ) : (
          <audio controls preload="none" src={src} aria-label={title || 'Audio'} />
        )}
      </div>
      <FigureFields
        {...props}
        label="Title (what it is: its player’s name for screen readers)"
        name="title"
        caption="caption"
        mark="data-media-title"
      />
    </NodeViewWrapper>
  );
}
