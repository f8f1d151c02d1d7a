/**
 * API drift (docs/decisions.md#spec-checks, issue 30): what one run of a check made from a spec says about the spec.
 * The `schema` assertion judged the answer against its operation's documented responses: a pass is an answer to spec, a
 * failure with a value is an answer that breaks it (an undocumented status included), and no value (no answer, or no
 * spec to judge by) or a schema that cannot be compiled says nothing either way, so an outage is never drift and never
 * clears it.
 */
import type { CheckRun } from './check-kinds.js';
import { parseSchemaFailure } from './schema-failure.js';

export interface DriftExample {
  status: number | null;
  /** JSON pointer into the body; empty for the whole body or the status. */
  pointer: string;
  message: string;
  value: string;
}

export type DriftVerdict = { breaks: false } | { breaks: true; example: DriftExample };

/** Failures that are not the API's (response-schemas.ts): the spec's schema cannot be compiled, the body was cut. */
const NO_VERDICT_RULES = new Set(['schema', 'size']);

/** What a run says about its spec; null when it says nothing. */
export function driftVerdict(run: Pick<CheckRun, 'status' | 'assertions'>): DriftVerdict | null {
  const schema = run.assertions?.find((assertion) => assertion.source === 'schema');
  if (!schema || schema.actual === null) return null;
  if (schema.pass) return { breaks: false };
  const failure = parseSchemaFailure(schema.actual);
  // A schema the spec itself makes unusable (an external or broken $ref), or a body longer than a check reads,
  // says nothing about the answers.
  if (failure && NO_VERDICT_RULES.has(failure.rule)) return null;
  return {
    breaks: true,
    example: failure
      ? {
          status: run.status ?? null,
          pointer: failure.pointer,
          message: `${failure.message} (${failure.rule})`,
          value: failure.value,
        }
      : { status: run.status ?? null, pointer: '', message: schema.actual, value: '' },
  };
}

/** "GET /items/{id}" or the operationId, as feeds and cards name an operation. */
export function operationLabel(operation: { operation_id: string; method: string; path: string }): string {
  const route = `${operation.method} ${operation.path}`;
  return operation.operation_id === route ? route : `${operation.operation_id} (${route})`;
}
