import { isEmail, isRequired, messages } from '../../domain/validators.js';

/**
 * The account screens' usual field check: required when empty, else `message` when `valid` refuses the value (one
 * rule, so the screens say the same thing in the same order).
 */
export function requiredThen(value: string, valid: (value: string) => boolean, message: string): string | null {
  if (!isRequired(value)) return messages.required;
  return valid(value) ? null : message;
}

/** An email as it is sent: trimmed. */
export const isSentEmail = (value: string) => isEmail(value.trim());
