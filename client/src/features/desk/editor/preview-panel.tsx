import { useEffect, useRef } from 'react';
import { previewUrl } from './post-api';

/** Who the preview is drawn for, and at which width. */
export interface PreviewView {
  as: 'visitor' | 'member';
  width: 390 | 1280;
}

/** The preview the Preview button opens first. */
export const FIRST_PREVIEW: PreviewView = { as: 'visitor', width: 1280 };

/**
 * The page the post would be, drawn by the server from the editor's content (saved or not), as a
 * visitor or a member sees it, at a phone's width or a desktop's.
 */
export function PreviewPanel({
  postId,
  changes,
  view: { as, width },
  onChange,
  onClose,
}: {
  postId: number;
  changes: Record<string, unknown>;
  view: PreviewView;
  onChange: (next: PreviewView) => void;
  onClose: () => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const json = JSON.stringify(changes);
  useEffect(() => {
    formRef.current?.submit();
  }, [json, as, width]);
  return (
    <div className="post-editor__preview" role="dialog" aria-label="Preview">
      <div className="post-editor__preview-bar">
        <div role="group" aria-label="Reader" className="button-row">
          {(['visitor', 'member'] as const).map((reader) => (
            <button
              key={reader}
              type="button"
              className="button button--outline"
              aria-pressed={as === reader}
              onClick={() => onChange({ as: reader, width })}
            >
              As a {reader}
            </button>
          ))}
        </div>
        <div role="group" aria-label="Width" className="button-row">
          {([390, 1280] as const).map((size) => (
            <button
              key={size}
              type="button"
              className="button button--outline"
              aria-pressed={width === size}
              onClick={() => onChange({ as, width: size })}
            >
              {size === 390 ? 'Phone' : 'Desktop'}
            </button>
          ))}
        </div>
        <button type="button" className="button" onClick={onClose}>
          Close preview
        </button>
      </div>
      <form ref={formRef} method="post" action={previewUrl(postId)} target="post-preview" hidden>
        <input type="hidden" name="as" value={as} />
        <input type="hidden" name="post" value={json} />
      </form>
      <div className="post-editor__frame" data-width={width}>
        <iframe
          name="post-preview"
          title={`Preview as a ${as}, ${width === 390 ? 'phone' : 'desktop'} width`}
          style={{ width }}
        />
      </div>
    </div>
  );
}
