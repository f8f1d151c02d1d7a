/**
 * What Beacon will send to must not point into the operator's network (the guard the checks use, runner/
 * address-policy.ts), unless private targets are allowed: refused when it is written, and again at every connect
 * (the guarded dispatcher), since a name may resolve elsewhere later.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { forbiddenKind, refusalMessage } from '../../runner/address-policy.js';
import { badRequest } from '../errors.js';

/** Throws a 400 naming `field` when the URL's host resolves (or is) a private address, or does not resolve. */
export async function requirePublicUrl(
  allowPrivate: boolean,
  url: string,
  where: { field: string; noun: string },
): Promise<void> {
  if (allowPrivate) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    throw badRequest(`The ${where.noun} host does not resolve`, { [where.field]: ['The host does not resolve'] });
  }
  for (const address of addresses) {
    const kind = forbiddenKind(address);
    if (kind) throw badRequest(refusalMessage(host, kind), { [where.field]: [refusalMessage(host, kind)] });
  }
}
