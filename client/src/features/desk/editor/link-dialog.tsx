import { useId, useState } from 'react';
import { isExternalHref } from '../../../../../contract/safe-href';
import { EditorDialog } from './editor-dialog';

/** What the editor accepts as a link: an http(s) address or a path on this site. */
export const isLinkAddress = (href: string) => /^(https?:\/\/[^\s]+|\/(?!\/)\S*)$/i.test(href);

/**
 * The body's link dialog: the address (filled in when the selection is a link already), then
 * Save, Remove (an existing link) or Cancel. "Open in a new tab" says what the site does with the
 * address: Markdown keeps no choice of tab, and the site opens another site's address in a new
 * tab and its own pages in the same one (client/src/components/external-link.tsx).
 */
export function LinkDialog({
  current,
  onSave,
  onRemove,
  onCancel,
}: {
  /** The link being edited; null for a new one. */
  current: string | null;
  onSave: (href: string) => void;
  onRemove: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const [href, setHref] = useState(current ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const address = href.trim();
  return (
    <EditorDialog labelledBy={titleId} className="editor-dialog--small" onClose={onCancel}>
      <form
        className="editor-dialog__form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!isLinkAddress(address)) {
            setProblem(
              'Type an address starting with https:// or a path on this site such as /wealth.',
            );
            return;
          }
          onSave(address);
        }}
      >
        <h2 id={titleId}>{current ? 'Edit link' : 'Add a link'}</h2>
        <label className="desk-field">
          <span>Address</span>
          <input
            value={href}
            data-autofocus
            inputMode="url"
            placeholder="https://… or /wealth"
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${titleId}-problem` : undefined}
            onChange={(event) => {
              setHref(event.target.value);
              setProblem(null);
            }}
          />
        </label>
        {problem && (
          <p id={`${titleId}-problem`} className="form-error" role="alert">
            {problem}
          </p>
        )}
        <label className="desk-check">
          <input
            type="checkbox"
            checked={isExternalHref(address)}
            disabled
            aria-describedby={`${titleId}-tab`}
          />
          Open in a new tab
        </label>
        <p id={`${titleId}-tab`} className="desk__small">
          The site opens another site’s address in a new tab, and its own pages in the same one.
        </p>
        <p className="button-row">
          <button type="submit" className="button button--accent">
            Save
          </button>
          {current && (
            <button type="button" className="button button--outline" onClick={onRemove}>
              Remove link
            </button>
          )}
          <button type="button" className="button button--outline" onClick={onCancel}>
            Cancel
          </button>
        </p>
      </form>
    </EditorDialog>
  );
}
