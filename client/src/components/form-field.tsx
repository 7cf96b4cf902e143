import { useId, type InputHTMLAttributes } from 'react';
import './form-field.css';

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | null;
  hint?: string;
}

/** A labelled input with its hint and error wired to it for screen readers. */
export function FormField({ label, error, hint, ...input }: FormFieldProps) {
  const id = useId();
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * An address, required. `autoComplete`: "username webauthn" on the sign-in page, where the browser
 * offers passkeys.
 */
export function EmailField({
  value,
  onChange,
  error,
  label = 'Email',
  hint,
  autoComplete = 'email',
}: {
  value: string;
  onChange(value: string): void;
  error?: string;
  label?: string;
  hint?: string;
  autoComplete?: string;
}) {
  return (
    <FormField
      label={label}
      type="email"
      name="email"
      autoComplete={autoComplete}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      hint={hint}
      required
    />
  );
}

/**
 * A form-wide error (one not about a single field), said at once to screen readers; `id` when a
 * field names it in its `aria-describedby`.
 */
export function FormError({ message, id }: { message?: string | null; id?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="form-error" role="alert">
      {message}
    </p>
  );
}
