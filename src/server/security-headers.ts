/**
 * Helmet's security headers (CSP, HSTS, X-Frame-Options, ...), computed once at start-up. Helmet decides them
 * from its options alone (no nonces here), so running its middleware for every request, as @fastify/helmet did,
 * parsed the same directives again each time (a visible share of a cheap read's profile: issues 14 and 18).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers `helmet(options)` sets on a response, by lower-case name. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * The headers an API answer (JSON, or an uploaded image) needs, after OWASP's REST Security Cheat Sheet: no content
 * type sniffing, never framed, never loaded by another origin, nothing to run if opened as a document, and HSTS
 * over HTTPS. Helmet's full set is about documents (scripts, styles, referrers, the opener): on a JSON answer it
 * does nothing but cost a fifth of a small read's throughput (issue 18), so documents keep it and the API gets this.
 */
export function apiSecurityHeaders(hsts: boolean): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    ...(hsts ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
