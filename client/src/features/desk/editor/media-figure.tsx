import { NodeViewWrapper, type ReactNodeViewProps } from '@tiptap/react';
import { formatDuration, parseMediaUrl } from '../../../../../contract/media';

/**
 * An uploaded audio or video file in the body as the editor draws it: a player of the site's own
 * file (nothing loads before it is played), and beside it its title, which screen readers give
 * as the player's name, and its caption (Markdown's `![title](src "caption")`: the node's `title`
 * and `caption`, cards-and-media.ts). A new upload's title takes the focus (body-editor.tsx).
 */
export function MediaFigure({ node, updateAttributes }: ReactNodeViewProps) {
  const src = typeof node.attrs.src === 'string' ? node.attrs.src : '';
  const title = typeof node.attrs.title === 'string' ? node.attrs.title : '';
  const caption = typeof node.attrs.caption === 'string' ? node.attrs.caption : '';
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
      {/* Not the body's text: typing here changes the file's attributes, not the document. */}
      <div className="editor__figure-fields" contentEditable={false}>
        <label className="desk-field">
          <span>Title (what it is: its player’s name for screen readers)</span>
          <input
            data-media-title=""
            value={title}
            onChange={(event) => updateAttributes({ title: event.target.value })}
          />
        </label>
        <label className="desk-field">
          <span>Caption (optional)</span>
          <input
            value={caption}
            onChange={(event) => updateAttributes({ caption: event.target.value || null })}
          />
        </label>
      </div>
    </NodeViewWrapper>
  );
}
