import { FormField } from '../../components/form-field';

interface FieldProps {
  value: string;
  onChange(value: string): void;
  error?: string;
  label?: string;
  hint?: string;
}

/** `autoComplete`: "username webauthn" on the sign-in page, where the browser offers passkeys. */
export function EmailField({
  value,
  onChange,
  error,
  label = 'Email',
  hint,
  autoComplete = 'email',
}: FieldProps & { autoComplete?: string }) {
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

/** `isNew`: a password being chosen (the browser offers to generate one), not typed from memory. */
export function PasswordField({
  value,
  onChange,
  error,
  label = 'Password',
  hint,
  isNew = false,
}: FieldProps & { isNew?: boolean }) {
  return (
    <FormField
      label={label}
      type="password"
      name={isNew ? 'new-password' : 'password'}
      autoComplete={isNew ? 'new-password' : 'current-password'}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      hint={hint}
      required
    />
  );
}

/** A form-wide error (one not about a single field). */
export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
