import { useEffect, useId, useRef, useState } from 'react';
import { EditorDialog } from './editor-dialog';
import { fetchPreviewWarnings, previewUrl } from './post-api';
import { describeWarning } from './preview-notes';

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
 * writer is, saying which it shows. A draft is drawn whatever publishing still needs (a section,
 * a summary, alt texts…): the server names those by the editor's labels, listed above it.
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
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const json = JSON.stringify(changes);
  const [warnings, setWarnings] = useState<string[]>([]);
  useEffect(() => {
    formRef.current?.submit();
  }, [json, as, width]);
  useEffect(() => {
    let current = true;
    fetchPreviewWarnings(postId, JSON.parse(json) as Record<string, unknown>)
      .then(({ warnings: found }) => current && setWarnings(found.map(describeWarning)))
      .catch((error: unknown) => {
        if (!current) return;
        setWarnings([error instanceof Error ? error.message : 'What publishing needs is unknown.']);
      });
    return () => {
      current = false;
    };
  }, [postId, json]);
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
