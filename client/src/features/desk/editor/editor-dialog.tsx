import { useEffect, useRef, type ReactNode } from 'react';
import '../../../components/dialog.css';

/**
 * A modal dialog of the editor (a link's address, leaving with unsaved work, the preview): over
 * the page where the writer is, whatever they scrolled to, with the focus inside (on the element
 * marked `data-autofocus`, else the first it has); Escape and `onClose` close it.
 */
export function EditorDialog({
  labelledBy,
  className = '',
  onClose,
  children,
}: {
  labelledBy: string;
  className?: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) {
      element.showModal();
      element.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className={`dialog editor-dialog ${className}`}
      aria-labelledby={labelledBy}
      // Escape: the browser closes it; the page forgets it.
      onClose={(event) => event.target === event.currentTarget && onClose()}
    >
      {children}
    </dialog>
  );
}

/**
 * The address a dialog asks for (a link's, an embed's): the first thing typed in, marked invalid
 * while it has a problem (said in `describedBy`'s element), which typing clears.
 */
export function AddressField({
  value,
  placeholder,
  invalid,
  describedBy,
  onType,
}: {
  value: string;
  placeholder: string;
  invalid: boolean;
  describedBy: string | undefined;
  onType: (value: string) => void;
}) {
  return (
    <label className="desk-field">
      <span>Address</span>
      <input
        value={value}
        data-autofocus
        inputMode="url"
        placeholder={placeholder}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(event) => onType(event.target.value)}
      />
    </label>
  );
}
