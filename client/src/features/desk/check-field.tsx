import type { ReactNode } from 'react';

/** A desk form's yes-or-no: a checkbox with its words after it, read-only to who may not change it. */
export function CheckField({
  className = 'desk-check',
  checked,
  readOnly,
  onChange,
  children,
}: {
  className?: string;
  checked: boolean;
  readOnly: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className={className}>
      <input
        type="checkbox"
        checked={checked}
        disabled={readOnly}
        onChange={(event) => onChange(event.target.checked)}
      />{' '}
      {children}
    </label>
  );
}
