/**
 * Credentials written into a URL (issue 48): a user name or password, or a query parameter whose name says it is
 * one (token, key, secret, password or signature, in any case: `access_token`, `api_key`, `X-Amz-Signature`).
 * Such a URL is refused where a secret has its own write-only field, and never shown.
 */
const CREDENTIAL_PARAMETER = /token|key|secret|password|signature/i;

export const isCredentialParameter = (name: string): boolean => CREDENTIAL_PARAMETER.test(name);

/** What in `url` is a credential: `userinfo`, or the first such query parameter's name; null when none. */
export function urlCredential(url: URL): string | null {
  if (url.username || url.password) return 'userinfo';
  for (const name of url.searchParams.keys()) if (isCredentialParameter(name)) return name;
  return null;
}

/** A copy of `url` without its user name, password and credential parameters (the other parameters kept). */
export function withoutCredentials(url: URL): URL {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  for (const name of [...copy.searchParams.keys()]) if (isCredentialParameter(name)) copy.searchParams.delete(name);
  return copy;
}
