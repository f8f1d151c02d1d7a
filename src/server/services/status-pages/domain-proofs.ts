/**
 * Proving a status page's custom domain (issue 48, docs/api.md): the page serves on its domain only while a DNS TXT
 * record `_beacon-challenge.{domain}` holds the page's token, looked for through the resolvers the dns checks ask
 * (BEACON_DNS_RESOLVERS). A domain is pending until then, and again once an answer says the record is gone; a
 * lookup nobody answered changes nothing. One page at a time holds a domain verified.
 */
import { randomBytes } from 'node:crypto';
import { domainChallengeName } from '../../../domain/status-pages.js';
import { observeDns } from '../../../runner/observe-dns.js';
import type { ServerContext } from '../../context.js';
import { findVerifiedPageByDomain, updateDomainCheck } from '../../db/repositories/status-pages.js';
import type { StatusPageRow, StatusPagesTable } from '../../db/schema.js';

const HOUR_MS = 3_600_000;
/** A domain is looked for again a day after each answer, an hour after a lookup nobody answered. */
export const DOMAIN_CHECK_MS = 24 * HOUR_MS;
const RETRY_MS = HOUR_MS;
const LOOKUP_TIMEOUT_SECONDS = 5;

export const DOMAIN_TAKEN = 'Another status page uses this domain';

/** What the TXT record must hold: 160 random bits, in hex (nothing to misread or escape in a DNS console). */
export const newDomainToken = (): string => randomBytes(20).toString('hex');

type Lookup = { found: true } | { found: false; answered: boolean; message: string };

async function lookForToken(ctx: ServerContext, domain: string, token: string): Promise<Lookup> {
  const name = domainChallengeName(domain);
  const seen = await observeDns(
    { kind: 'dns', endpoint: name, record: 'TXT', timeoutSeconds: LOOKUP_TIMEOUT_SECONDS },
    { allowPrivate: ctx.config.allowPrivateTargets, dnsResolvers: ctx.config.dnsResolvers },
  );
  if (!seen.dns) {
    return { found: false, answered: false, message: `${name}: ${seen.error?.message ?? 'no DNS answer'}` };
  }
  if (seen.dns.answers.some((answer) => answer.trim() === token)) return { found: true };
  // NXDOMAIN and an answer without the token say the record is not there; SERVFAIL and the like say nothing.
  if (seen.dns.rcode !== 'NOERROR' && seen.dns.rcode !== 'NXDOMAIN') {
    return { found: false, answered: false, message: `${name}: the DNS answered ${seen.dns.rcode}` };
  }
  return { found: false, answered: true, message: `No TXT record ${name} holds the token` };
}

/**
 * Looks for the page's record and writes what it found, unless the page's domain changed meanwhile. `taken` when
 * the record is there but another page holds the domain verified.
 */
export async function checkDomain(ctx: ServerContext, row: StatusPageRow): Promise<'verified' | 'pending' | 'taken'> {
  const { custom_domain: domain, custom_domain_token: token } = row;
  if (!domain || !token) return 'pending';
  const { db } = ctx.database;
  const lookup = await lookForToken(ctx, domain, token);
  const now = ctx.now();
  const at = now.toISOString();
  const holder = lookup.found && !row.custom_domain_verified_at && (await findVerifiedPageByDomain(db, domain));
  const taken = Boolean(holder && holder.id !== row.id);
  const verifiedAt = taken
    ? null
    : lookup.found
      ? (row.custom_domain_verified_at ?? at)
      : lookup.answered
        ? null
        : row.custom_domain_verified_at;
  const columns: Partial<StatusPagesTable> = {
    custom_domain_verified_at: verifiedAt,
    custom_domain_checked_at: at,
    custom_domain_check_error: taken ? DOMAIN_TAKEN : lookup.found ? null : lookup.message,
    custom_domain_next_check_at: now.getTime() + (lookup.found || lookup.answered ? DOMAIN_CHECK_MS : RETRY_MS),
  };
  // updated_at moves the page's status version (migration 025): hosts found for it are looked up again.
  if ((verifiedAt === null) !== (row.custom_domain_verified_at === null)) columns.updated_at = at;
  const write = (set: Partial<StatusPagesTable>) => updateDomainCheck(db, row.id, { domain, token }, set);
  try {
    await write(columns);
  } catch (error) {
    // Another page proved the domain between the read and the write: the unique index refused this one.
    const winner = await findVerifiedPageByDomain(db, domain);
    if (!winner || winner.id === row.id) throw error;
    // Still pending, as before: its status version need not move.
    delete columns.updated_at;
    await write({ ...columns, custom_domain_verified_at: null, custom_domain_check_error: DOMAIN_TAKEN });
    return 'taken';
  }
  return taken ? 'taken' : verifiedAt ? 'verified' : 'pending';
}
