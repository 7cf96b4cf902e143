import {
  isValidEmail,
  MIN_PASSWORD_LENGTH,
  normalizeEmail,
} from '../../../../contract/account-rules';
import { ApiError } from '../../lib/api-client';

export function emailProblem(email: string): string | null {
  if (!email.trim()) return 'Enter your email address.';
  if (!isValidEmail(normalizeEmail(email))) {
    return 'Enter a valid email address, like name@example.com.';
  }
  return null;
}

export function newPasswordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  return null;
}

export type FieldErrors = Partial<Record<'email' | 'password' | 'code' | 'form', string>>;

/** Puts a server error next to the field it is about. */
export function fieldErrorsFrom(error: unknown): FieldErrors {
  if (!(error instanceof ApiError))
    return { form: 'Could not reach the server. Please try again.' };
  if (error.code === 'invalid_email' || error.code === 'email_taken')
    return { email: error.message };
  if (
    ['weak_password', 'wrong_password', 'invalid_password', 'password_required'].includes(
      error.code,
    )
  )
    return { password: error.message };
  if (['invalid_code', 'code_expired', 'too_many_codes'].includes(error.code))
    return { code: error.message };
  return { form: error.message };
}
