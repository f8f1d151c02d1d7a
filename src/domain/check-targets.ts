/**
 * A check's `endpoint` per kind (docs/decisions.md#checks): an http(s) URL; `host:port` for tcp and tls; a DNS name for
 * dns and domain; nothing for a heartbeat. Used by the API to refuse a bad target, by the app's form, and by the
 * probes to read `host:port`.
 */
import type { CheckKind } from './check-kinds.js';

/** `host:port`, with IPv6 literals in brackets (`[2001:db8::1]:443`); null when it is not one. */
export function parseHostPort(endpoint: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]/]+)):(\d{1,5})$/.exec(endpoint.trim());
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65_535) return null;
  const host = match[1] ?? match[2]!;
  if (!match[1] && !isDnsName(host) && !isIpv4(host)) return null;
  return { host, port };
}

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/i;

/** A DNS name of letters, digits, hyphens and underscores (SRV-style labels), at most 253 characters. */
export function isDnsName(name: string): boolean {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  if (trimmed.length === 0 || trimmed.length > 253) return false;
  return trimmed.split('.').every((label) => LABEL.test(label));
}

/**
 * Names only a private network answers (RFC 6762 `.local`, RFC 8375 `.home.arpa`, ICANN's `.internal`,
 * Kubernetes' `.cluster.local`, and `localhost`): a shared runner's dns check may not ask for them unless the
 * operator allows private targets, since its resolvers would map the operator's network for whoever asks.
 */
const PRIVATE_SUFFIXES = ['local', 'home.arpa', 'internal', 'localhost'];

export function isPrivateDnsName(name: string): boolean {
  const lower = name.toLowerCase().replace(/\.$/, '');
  return PRIVATE_SUFFIXES.some((suffix) => lower === suffix || lower.endsWith(`.${suffix}`));
}

function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

/** Why `endpoint` is not a target of `kind`, in words for the form; null when it is one. */
export function endpointError(kind: CheckKind, endpoint: string | null | undefined): string | null {
  const value = (endpoint ?? '').trim();
  switch (kind) {
    case 'heartbeat':
      return value ? 'A heartbeat has no endpoint: the job pings the URL Beacon gives' : null;
    case 'http': {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return 'Must be an http or https URL';
      }
      return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'Must be an http or https URL';
    }
    case 'tcp':
    case 'tls':
      return parseHostPort(value) ? null : 'Must be host:port, e.g. db.example.com:5432 or [2001:db8::1]:443';
    case 'dns':
    case 'domain':
      return isDnsName(value) && value.includes('.') ? null : 'Must be a domain name, e.g. example.com';
  }
}
