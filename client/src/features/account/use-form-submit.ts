import { useState, type FormEvent } from 'react';
import { fieldErrorsFrom, type FieldErrors } from './validation';

/** A form's submitting state and errors: `validate` first, then `send`, errors put by field. */
export function useFormSubmit(validate: () => FieldErrors, send: () => Promise<void>) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problems = validate();
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    setSubmitting(true);
    try {
      await send();
    } catch (error) {
      setErrors(fieldErrorsFrom(error));
    } finally {
      setSubmitting(false);
    }
  }
  return { errors, submitting, onSubmit: (event: FormEvent) => void onSubmit(event) };
}
