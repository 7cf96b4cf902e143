import { FormField } from '../../components/form-field';

interface FieldProps {
  value: string;
  onChange(value: string): void;
  error?: string;
  label?: string;
  hint?: string;
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
