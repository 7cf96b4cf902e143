import { useId, type ReactNode } from 'react';

/**
 * A change waiting for the staff member to confirm it, in the page (not a browser dialog): what it
 * will do, in words that name what it touches, then the change's own button and "Cancel".
 */
export function ConfirmBox({
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy = false,
}: {
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const id = useId();
  return (
    <div className="desk__notice" role="alertdialog" aria-labelledby={id}>
      <p id={id}>{children}</p>
      <p className="button-row">
        <button type="button" className="button button--accent" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" className="button button--outline" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </div>
  );
}
