import { useEffect, useId, useRef } from 'react';
import { EditorDialog } from './editor-dialog';
import { previewUrl } from './post-api';
import { previewChanges } from './preview-notes';

/** Who the preview is drawn for, and at which width. */
export interface PreviewView {
  as: 'visitor' | 'member';
  width: 390 | 1280;
}

/** The preview the Preview button opens first: as a visitor, at the width of the writer's screen. */
export const firstPreview = (): PreviewView => ({
  as: 'visitor',
  width: window.innerWidth < 760 ? 390 : 1280,
});

/**
 * The page the post would be, drawn by the server from the editor's content (saved or not), as a
 * visitor or a member sees it, at a phone's width or a desktop's: over the editor, where the
 * writer is, saying which it shows. A draft is drawn without what only publishing asks for (alt
 * texts), named above it as warnings.
 */
export function PreviewPanel({
  postId,
  changes,
  warnings,
  view: { as, width },
  onChange,
  onClose,
}: {
  postId: number;
  changes: Record<string, unknown>;
  warnings: string[];
  view: PreviewView;
  onChange: (next: PreviewView) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const json = JSON.stringify(previewChanges(changes));
  useEffect(() => {
    formRef.current?.submit();
  }, [json, as, width]);
  const widthName = width === 390 ? 'phone' : 'desktop';
  return (
    <EditorDialog labelledBy={titleId} className="editor-dialog--preview" onClose={onClose}>
      <div className="post-editor__preview-bar">
        <h2 id={titleId} className="post-editor__preview-title">
          Preview: as a {as} sees it <span>({widthName} width)</span>
        </h2>
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
      {warnings.length > 0 && (
        <ul className="post-editor__preview-notes" aria-label="Before publishing">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      <form ref={formRef} method="post" action={previewUrl(postId)} target="post-preview" hidden>
        <input type="hidden" name="as" value={as} />
        <input type="hidden" name="post" value={json} />
      </form>
      <div className="post-editor__frame" data-width={width}>
        <iframe
          name="post-preview"
          title={`Preview as a ${as}, ${widthName} width`}
          style={{ width }}
        />
      </div>
    </EditorDialog>
  );
}
