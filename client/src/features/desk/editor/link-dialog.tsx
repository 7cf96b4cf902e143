import { useId, useState } from 'react';
import { opensInNewTab, type LinkTarget } from '../../../../../contract/link-target';
import { AddressField, EditorDialog } from './editor-dialog';

/** What the editor accepts as a link: an http(s) address or a path on this site. */
export const isLinkAddress = (href: string) => /^(https?:\/\/[^\s]+|\/(?!\/)\S*)$/i.test(href);

/** A link as the dialog edits it: its address, and its own choice of tab (null: the site's rule). */
export interface LinkChoice {
  href: string;
  target: LinkTarget | null;
}

/**
 * The choice of tab a link keeps (contract/link-target.ts): only one the site's rule would not
 * make, so that a link following the rule keeps following it when its address changes.
 */
export function targetOf(href: string, newTab: boolean): LinkTarget | null {
  if (newTab === opensInNewTab(href)) return null;
  return newTab ? '_blank' : '_self';
}

/**
 * The body's link dialog: the address (filled in when the selection is a link already) and
 * whether it opens in a new tab, then Save, Remove (an existing link) or Cancel. Until the writer
 * chooses, the tab follows the site's rule for the address as typed: another site's in a new tab,
 * the site's own pages in the same one.
 */
export function LinkDialog({
  current,
  onSave,
  onRemove,
  onCancel,
}: {
  /** The link being edited; null for a new one. */
  current: LinkChoice | null;
  onSave: (link: LinkChoice) => void;
  onRemove: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const [href, setHref] = useState(current?.href ?? '');
  /** The writer's choice of tab; null while the link follows the site's rule. */
  const [chosen, setChosen] = useState<boolean | null>(
    current?.target ? current.target === '_blank' : null,
  );
  const [problem, setProblem] = useState<string | null>(null);
  const address = href.trim();
  const newTab = chosen ?? opensInNewTab(address);
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
          onSave({ href: address, target: targetOf(address, newTab) });
        }}
      >
        <h2 id={titleId}>{current ? 'Edit link' : 'Add a link'}</h2>
        <AddressField
          value={href}
          placeholder="https://… or /wealth"
          invalid={problem !== null}
          describedBy={problem ? `${titleId}-problem` : undefined}
          onType={(value) => {
            setHref(value);
            setProblem(null);
          }}
        />
        {problem && (
          <p id={`${titleId}-problem`} className="form-error" role="alert">
            {problem}
          </p>
        )}
        <label className="desk-check">
          <input
            type="checkbox"
            checked={newTab}
            aria-describedby={`${titleId}-tab`}
            onChange={(event) => setChosen(event.target.checked)}
          />
          Open in a new tab
        </label>
        <p id={`${titleId}-tab`} className="desk__small">
          Unless you choose, another site’s address opens in a new tab and the site’s own pages in
          the same one.
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
