import { isHandle, messages } from '../../domain/validators.js';
import { badRequest, conflict, HttpError } from '../errors.js';

/** Spec (platform 5): the create forms' text for a taken handle, teams and services alike. */
export const HANDLE_TAKEN = 'Service handle is already taken';

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
