/**
 * Why a body broke its operation's response schema (docs/decisions.md#spec-checks, issue 30), as the `schema`
 * assertion's `actual` text says it: `/items/0/price: must be number (type), got "12"`. The runner writes it
 * (response-schemas.ts); the server and the app read it back from stored results (API drift). Pure.
 *
 * The pointer is shown with `%` and whitespace percent-encoded, so the first `: ` always ends it; the root is
 * shown as `/` (so a pointer to a property named "" at the root reads back as the root). `, got <value>` is left
 * out when there is no value (a schema that cannot be compiled).
 */

export interface SchemaFailure {
  /** JSON pointer into the body; '' for the root (and for the status or a body that is no JSON). */
  pointer: string;
  /** The Ajv keyword (`type`, `required`, ...), or `status`, `json`, `schema` for Beacon's own checks. */
  rule: string;
  /** `must be number`, `must have required property 'id'`, `status 418 is not documented`, ... */
  message: string;
  /** The offending value as JSON, at most SCHEMA_VALUE_MAX characters (cut with …); '' when there is none. */
  value: string;
}

export const SCHEMA_VALUE_MAX = 100;

/** `text` cut to SCHEMA_VALUE_MAX characters with …, never splitting a surrogate pair. */
export function clipValue(text: string): string {
  if (text.length <= SCHEMA_VALUE_MAX) return text;
  let end = SCHEMA_VALUE_MAX - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

const showPointer = (pointer: string) =>
  pointer === '' ? '/' : pointer.replace(/[%\s]/g, (char) => encodeURIComponent(char));

export function formatSchemaFailure(failure: SchemaFailure): string {
  const head = `${showPointer(failure.pointer)}: ${failure.message} (${failure.rule})`;
  return failure.value === '' ? head : `${head}, got ${failure.value}`;
}

const FAILURE = /^(\/\S*): (.*?) \(([\w$-]+)\)(?:, got (.*))?$/s;

/** The inverse of formatSchemaFailure; null for `valid` or any other text. */
export function parseSchemaFailure(actual: string): SchemaFailure | null {
  const match = FAILURE.exec(actual);
  if (!match) return null;
  let pointer: string;
  try {
    pointer = match[1] === '/' ? '' : decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  return { pointer, rule: match[3]!, message: match[2]!, value: match[4] ?? '' };
}
