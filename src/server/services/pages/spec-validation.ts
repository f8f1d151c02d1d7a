/**
 * OpenAPI spec pages are published only when valid (docs/decisions.md#pages, integrations.md 4): the text parses as
 * YAML or JSON (`yaml`), and the document is a valid OpenAPI 3.x or Swagger 2.0 definition (`@readme/openapi-parser`).
 * Drafts may be anything: a draft is work in progress.
 */
import { validate } from '@readme/openapi-parser';
import { parse } from 'yaml';
import { isSpecObject, SPEC_NOT_AN_OBJECT, specProblems } from '../../../domain/pages.js';
import { HttpError } from '../../errors.js';

export const SPEC_NOT_PARSED = 'The content is not valid YAML or JSON';
export const SPEC_INVALID = 'The content is not a valid OpenAPI document';

export interface SpecRefusal {
  /** One sentence: what is wrong, with the first problem. */
  message: string;
  /** The parser's first few messages, shortened. */
  problems: string[];
}

function refusal(what: string, problems: string[]): SpecRefusal {
  return { message: problems[0] ? `${what}: ${problems[0]}` : `${what}.`, problems };
}

/** Why an OpenAPI spec page's text may not be published; null when it may. */
export async function specRefusal(text: string): Promise<SpecRefusal | null> {
  let doc: unknown;
  try {
    doc = parse(text, { prettyErrors: true });
  } catch (error) {
    return refusal(SPEC_NOT_PARSED, specProblems([error instanceof Error ? error.message : String(error)]));
  }
  // Never a string: the parser would read a string as a file path or a URL.
  if (!isSpecObject(doc)) return refusal(SPEC_INVALID, [SPEC_NOT_AN_OBJECT]);
  try {
    // External $refs are never fetched (SSRF: the server would fetch what a page names); they are left alone.
    const result = await validate(doc as never, { resolve: { external: false } });
    if (result.valid) return null;
    return refusal(
      SPEC_INVALID,
      specProblems(
        result.errors.map((error) => error.message),
        result.additionalErrors,
      ),
    );
  } catch (error) {
    // A $ref the parser could not follow, and the like: the document is not usable as it is.
    return refusal(SPEC_INVALID, specProblems([error instanceof Error ? error.message : String(error)]));
  }
}

/** 422 naming the content field, in the repository's validation-error shape, when the spec may not be published. */
export async function assertPublishableSpec(text: string): Promise<void> {
  const refused = await specRefusal(text);
  if (refused) throw new HttpError(422, refused.message, { content: refused.problems });
}
