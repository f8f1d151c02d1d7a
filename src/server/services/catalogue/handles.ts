import { isHandle, messages } from '../../../domain/validators.js';
import { badRequest, conflict, HttpError } from '../../errors.js';

/** Spec (platform 5): the create forms' text for a taken handle, teams and services alike. */
const HANDLE_TAKEN = 'Service handle is already taken';

/** A new team or service handle: the shared handle rule, lowercase only (as for user handles). */
export function requireValidHandle(handle: string): void {
  if (!isHandle(handle) || handle !== handle.toLowerCase()) {
    throw badRequest(messages.handleNotValid, { handle: [messages.handleNotValid] });
  }
}

/**
 * Runs `write` unless the handle is taken. A concurrent writer can still win the unique index between the
 * check and the write; the index error is then answered like the check would have been.
 */
export async function withFreeHandle(taken: () => Promise<boolean>, write: () => Promise<void>): Promise<void> {
  if (await taken()) throw conflict(HANDLE_TAKEN, { handle: [HANDLE_TAKEN] });
  try {
    await write();
  } catch (error) {
    if (!(error instanceof HttpError) && (await taken())) throw conflict(HANDLE_TAKEN, { handle: [HANDLE_TAKEN] });
    throw error;
  }
}

/**
 * The handle of a new client or runner: the one asked for (valid, or 400), else the first free one made from
 * its name, with `fallback` for names too short to make one.
 */
export async function chooseHandle(
  input: { handle?: string | undefined; name: string },
  fallback: string,
  taken: (handle: string) => Promise<boolean>,
): Promise<string> {
  if (input.handle === undefined) return firstFreeHandle(handleFromName(input.name, fallback), taken);
  requireValidHandle(input.handle);
  return input.handle;
}

/** A handle made from a name ('Deploy Bot!' -> 'deploy-bot'), at least 3 characters. */
function handleFromName(name: string, fallback: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return base.length >= 3 ? base : `${fallback}${base ? `-${base}` : ''}`;
}

/** The first of `base`, `base-2`, `base-3`, ... that is not taken. */
async function firstFreeHandle(base: string, taken: (handle: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; ; n++) {
    const handle = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(handle))) return handle;
  }
}
