/**
 * Shared validators (spec/platform.md section 5). Server, app and worker all import these;
 * the messages are the product's texts.
 */

export const HANDLE_MIN_LENGTH = 3;
export const DOMAIN_MIN_LENGTH = 3;
export const BETA_CODE_LENGTH = 6;
export const PASSWORD_MIN_LENGTH = 8;

/**
 * A handle's shape (spec section 5), declared once for the contract, the server and the app: lower-case letters and
 * digits in runs joined by single hyphens. Lengths differ per kind of handle; each schema sets its own.
 */
export const HANDLE_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** HANDLE_PATTERN in the product's words, for forms and schemas. */
export const HANDLE_RULE = 'Lower-case letters, digits and single hyphens';
/** isHandle also takes capitals: its callers refuse them with their own message, or lower them first. */
const HANDLE_PATTERN_ANY_CASE = new RegExp(HANDLE_PATTERN.source, 'i');
// A pragmatic "standard" email pattern: something@something.tld, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PASSWORD_SPECIALS = /[#?!@$%^&*-]/;

/** Labels that would collide with the platform's own hosts. */
export const RESERVED_DOMAINS: readonly string[] = [
  'www',
  'api',
  'app',
  'admin',
  'mail',
  'signup',
  'register',
  'static',
];

export function isRequired(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.trim().length > 0;
}

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

/** Letters, digits and single hyphens, starting and ending with a letter or digit, at least 3 characters. */
export function isHandle(value: string): boolean {
  return value.length >= HANDLE_MIN_LENGTH && HANDLE_PATTERN_ANY_CASE.test(value);
}

/**
 * docs/decisions.md#open-decisions: one password rule everywhere, the stricter reading: at least 8 characters with a
 * lowercase and an uppercase letter, a digit and one of # ? ! @ $ % ^ & * -.
 */
export function isStrongPassword(value: string): boolean {
  return (
    value.length >= PASSWORD_MIN_LENGTH &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    /[0-9]/.test(value) &&
    PASSWORD_SPECIALS.test(value)
  );
}

/** A workspace domain is a lowercase handle of at least 3 characters that is not reserved. */
export function isDomain(value: string): boolean {
  return value.length >= DOMAIN_MIN_LENGTH && value === value.toLowerCase() && isHandle(value);
}

export function isReservedDomain(value: string): boolean {
  return RESERVED_DOMAINS.includes(value.toLowerCase());
}

export function isBetaCode(value: string): boolean {
  return value.length === BETA_CODE_LENGTH;
}

/**
 * Slug: lowercase, whitespace to hyphens, strip non-word characters, collapse repeated hyphens,
 * trim hyphens at the ends. Used to fill a handle from a name.
 */
export function slugify(value: string): string {
  return value
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^\w-]+/g, '')
    .replace(/_/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const messages = {
  invalidEmail: 'Invalid Email provided',
  emailNotValid: 'Email is not valid',
  handleNotValid: 'Handle is not valid, can only contain lowercase letters and dashes',
  joinHandleNotValid: 'The handle is not valid',
  passwordNotStrongLong:
    'Password is not strong enough. It must be at least 8 characters and include a lowercase and uppercase letter, a number and a special character.',
  passwordNotStrong: 'Password not strong enough',
  domainTooShort: 'Domain must be at least 3 characters',
  domainNotValid: 'Domain can only contain lowercase letters, digits and dashes',
  domainReserved: 'This domain is reserved',
  invalidBetaCode: 'Invalid Beta Code',
  confirmPasswordMismatch: 'Confirm Password does not match with Password',
  loginFailed: 'Login/password did not match',
  required: 'This field is required',
} as const;

/** Why a workspace domain cannot be used (registration, on the server and in the form), or null. */
export function workspaceDomainError(domain: string): string | null {
  if (domain.length < DOMAIN_MIN_LENGTH) return messages.domainTooShort;
  if (!isDomain(domain)) return messages.domainNotValid;
  return isReservedDomain(domain) ? messages.domainReserved : null;
}

/** Lower-case letters and digits in runs joined by single hyphens, accents dropped, at most `max` long; '' if none. */
export function handleFromText(text: string, max = 64): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
}

/** A Slack channel id or name, as a service's channel setting and its `beacon.io/slack-channel` annotation take it. */
export const SLACK_CHANNEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$/;
