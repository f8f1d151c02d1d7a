/** Which application a host gets (spec/platform.md section 1), shared by the server and the app. */

/** The workspace label of a host under the base domain, or null for the root application. */
export function workspaceLabelOf(host: string | undefined, baseDomain: string): string | null {
  if (!host) return null;
  const hostname = host.replace(/:\d+$/, '').toLowerCase();
  const suffix = `.${baseDomain.toLowerCase()}`;
  if (!hostname.endsWith(suffix)) return null;
  const label = hostname.slice(0, -suffix.length);
  return label && !label.includes('.') ? label : null;
}

export type AppKind = { kind: 'signup' } | { kind: 'root' } | { kind: 'workspace'; workspace: string };

/** The hosted sign-up host serves only /register; a workspace subdomain the workspace app; else the root app. */
export function appKindOf(hostname: string, baseDomain: string, signupHost: string | null): AppKind {
  const host = hostname.toLowerCase();
  if (signupHost && host === signupHost.toLowerCase()) return { kind: 'signup' };
  const workspace = workspaceLabelOf(host, baseDomain);
  return workspace ? { kind: 'workspace', workspace } : { kind: 'root' };
}
