/**
 * The domain kind's probe (docs/decisions.md#checks): when the registration of the check's domain expires, from RDAP
 * (RFC 9083). The registrable domain comes from the public suffix list (tldts: `www.example.co.uk` is
 * `example.co.uk`), its registry's RDAP service from the IANA bootstrap file (RFC 9224). A TLD without RDAP
 * (.de, .eu) or an answer without an expiration event is "unknown": an answer, never a failure. Registries
 * rate-limit and expiry dates move slowly, so the bootstrap file and each answer are kept a day.
 */
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { getDomain } from 'tldts';
import type { Observation, ProbeSpec } from '../domain/check-kinds.js';
import { isDnsName } from '../domain/check-targets.js';
import { httpExchange, withHttpDispatcher } from './observe-http.js';
import { probeError, startDeadline, stopwatch, type ObserveOptions, type ProbeError } from './observe-support.js';
import type { Dispatcher } from 'undici';

export const DEFAULT_RDAP_BOOTSTRAP_URL = 'https://data.iana.org/rdap/dns.json';
/** How long a bootstrap file and a domain's answer are kept. */
export const RDAP_CACHE_MS = 86_400_000;
/** Domains whose answers are kept at most; the oldest go first. */
const MAX_CACHED_DOMAINS = 10_000;
/** Bytes of a bootstrap file or RDAP answer read (IANA's dns.json is far smaller). */
const RDAP_CAP_BYTES = 2 * 1024 * 1024;
const DAY_MS = 86_400_000;
const RDAP_HEADERS = { accept: 'application/rdap+json, application/json;q=0.9' };

/** A registry's answer as kept: the expiry (epoch ms) or why it is unknown. */
interface DomainAnswer {
  at: number;
  expiresAt: number | null;
  unknownReason?: string;
}

interface Bootstrap {
  at: number;
  /** TLD (or longer suffix) to its RDAP base URLs, https first. */
  services: Map<string, string[]>;
}

const bootstraps = new Map<string, Bootstrap>();
const loadingBootstraps = new Map<string, Promise<Bootstrap>>();
const answers = new Map<string, DomainAnswer>();

/** Forgets every kept bootstrap file and answer (tests; an operator changing the bootstrap URL needs nothing). */
export function clearRdapCaches(): void {
  bootstraps.clear();
  loadingBootstraps.clear();
  answers.clear();
}

/** An RDAP server (or the bootstrap file) answered, but not usefully. */
class RdapError extends Error {}

/** Looks the domain's expiry up (or reads it from the day's cache). Never throws. */
export async function observeDomain(spec: ProbeSpec, options: ObserveOptions): Promise<Observation> {
  const elapsed = stopwatch();
  const name = spec.endpoint.trim().replace(/\.$/, '').toLowerCase();
  const fail = (error: ProbeError, connected = false): Observation => ({ connected, latency_ms: elapsed(), error });
  if (isIP(name) || !isDnsName(name)) return fail({ class: 'dns', message: `"${spec.endpoint}" is not a domain name` });
  const registrable = getDomain(name);
  if (!registrable) return fail({ class: 'dns', message: `${name} is a public suffix, not a registrable domain` });
  const domain = domainToASCII(registrable) || registrable;

  const bootstrapUrl = options.rdapBootstrapUrl ?? DEFAULT_RDAP_BOOTSTRAP_URL;
  const key = `${bootstrapUrl} ${domain}`;
  const kept = answers.get(key);
  if (kept && Date.now() - kept.at < RDAP_CACHE_MS)
    return { connected: true, latency_ms: elapsed(), domain: seen(kept) };

  const deadline = startDeadline(spec.timeoutSeconds);
  let fetching = bootstrapUrl;
  try {
    const answer = await withHttpDispatcher(options, async (dispatcher) => {
      const bootstrap = await loadBootstrap(bootstrapUrl, dispatcher, deadline.signal);
      const base = serviceFor(domain, bootstrap.services);
      if (!base) {
        const tld = domain.slice(domain.lastIndexOf('.') + 1);
        return { at: Date.now(), expiresAt: null, unknownReason: `.${tld} has no RDAP service` };
      }
      const url = new URL(`domain/${domain}`, base.endsWith('/') ? base : `${base}/`);
      fetching = url.href;
      return lookUp(url, domain, dispatcher, deadline.signal);
    });
    remember(key, answer);
    return { connected: true, latency_ms: elapsed(), domain: seen(answer) };
  } catch (error) {
    // An RDAP answer that says nothing useful was still an answer: connected, with the reason.
    if (error instanceof RdapError) return fail({ class: 'protocol', message: error.message }, true);
    return fail(probeError(error, hostOf(fetching), deadline));
  } finally {
    deadline.clear();
  }
}

/** What an observation says of a kept answer now: days left floored, negative once expired. */
function seen(answer: DomainAnswer): NonNullable<Observation['domain']> {
  if (answer.expiresAt === null) {
    return { days_left: null, expires_at: null, ...(answer.unknownReason && { unknown_reason: answer.unknownReason }) };
  }
  return {
    days_left: Math.floor((answer.expiresAt - Date.now()) / DAY_MS),
    expires_at: new Date(answer.expiresAt).toISOString(),
  };
}

function remember(key: string, answer: DomainAnswer): void {
  answers.delete(key);
  answers.set(key, answer);
  for (const oldest of answers.keys()) {
    if (answers.size <= MAX_CACHED_DOMAINS) break;
    answers.delete(oldest);
  }
}

/** The bootstrap file, from the day's cache or fetched (once, however many probes ask at the same time). */
async function loadBootstrap(url: string, dispatcher: Dispatcher, signal: AbortSignal): Promise<Bootstrap> {
  const kept = bootstraps.get(url);
  if (kept && Date.now() - kept.at < RDAP_CACHE_MS) return kept;
  let loading = loadingBootstraps.get(url);
  if (!loading) {
    loading = fetchBootstrap(url, dispatcher, signal).finally(() => loadingBootstraps.delete(url));
    loadingBootstraps.set(url, loading);
  }
  const bootstrap = await loading;
  bootstraps.set(url, bootstrap);
  return bootstrap;
}

async function fetchBootstrap(url: string, dispatcher: Dispatcher, signal: AbortSignal): Promise<Bootstrap> {
  const json = await getJson(new URL(url), dispatcher, signal, 'the RDAP bootstrap file');
  const services = new Map<string, string[]>();
  const list = (json as { services?: unknown } | null)?.services;
  if (!Array.isArray(list)) throw new RdapError('RDAP: the bootstrap file is not in RFC 9224 form');
  for (const service of list) {
    if (!Array.isArray(service)) continue;
    const [entries, urls] = service as unknown[];
    if (!Array.isArray(entries) || !Array.isArray(urls)) continue;
    // RFC 9224: prefer https among a service's URLs.
    const bases = urls.filter((u): u is string => typeof u === 'string' && /^https?:\/\//i.test(u));
    bases.sort((a, b) => Number(b.startsWith('https:')) - Number(a.startsWith('https:')));
    for (const entry of entries) if (typeof entry === 'string') services.set(entry.toLowerCase(), bases);
  }
  return { at: Date.now(), services };
}

/** The base URL of the service for `domain`: the longest matching suffix label set (RFC 9224 section 4). */
function serviceFor(domain: string, services: Map<string, string[]>): string | undefined {
  const labels = domain.split('.');
  for (let i = 1; i < labels.length; i++) {
    const base = services.get(labels.slice(i).join('.'))?.[0];
    if (base) return base;
  }
  return undefined;
}

/** The registry's answer for `domain`: its `expiration` event (RFC 9083 section 4.5), or why there is none. */
async function lookUp(url: URL, domain: string, dispatcher: Dispatcher, signal: AbortSignal): Promise<DomainAnswer> {
  const json = await getJson(url, dispatcher, signal, 'the registry', domain);
  const events = (json as { events?: unknown } | null)?.events;
  const expiration = Array.isArray(events)
    ? (events as { eventAction?: unknown; eventDate?: unknown }[]).find(
        (event) => typeof event?.eventAction === 'string' && event.eventAction.toLowerCase() === 'expiration',
      )
    : undefined;
  const expiresAt = typeof expiration?.eventDate === 'string' ? Date.parse(expiration.eventDate) : NaN;
  if (!Number.isFinite(expiresAt)) {
    return { at: Date.now(), expiresAt: null, unknownReason: "The registry's RDAP answer names no expiration date" };
  }
  return { at: Date.now(), expiresAt };
}

/** GETs JSON, following redirects to any host (each hop guarded). Throws RdapError for an unusable answer. */
async function getJson(
  url: URL,
  dispatcher: Dispatcher,
  signal: AbortSignal,
  what: string,
  domain?: string,
): Promise<unknown> {
  const answer = await httpExchange(
    url,
    { method: 'GET', headers: RDAP_HEADERS },
    { dispatcher, signal, capBytes: RDAP_CAP_BYTES, otherHosts: true },
  );
  if (answer.error) throw new RdapError(`RDAP: ${answer.error.message}`);
  if (answer.status === 404 && domain) {
    throw new RdapError(`RDAP: the registry has no record of ${domain} (HTTP 404)`);
  }
  if (answer.status !== 200) throw new RdapError(`RDAP: ${what} answered HTTP ${answer.status}`);
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    throw new RdapError(`RDAP: ${what} did not answer JSON`);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
