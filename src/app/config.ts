/** Settings the server writes into index.html (BEACON_BASE_DOMAIN, BEACON_SIGNUP_HOST). */
export interface AppConfig {
  baseDomain: string;
  signupHost: string | null;
}

export function readAppConfig(doc: Document = document): AppConfig {
  const meta = doc.querySelector<HTMLMetaElement>('meta[name="beacon-config"]');
  try {
    const parsed = meta ? (JSON.parse(meta.content) as Partial<AppConfig>) : {};
    return { baseDomain: parsed.baseDomain ?? 'localhost', signupHost: parsed.signupHost ?? null };
  } catch {
    return { baseDomain: 'localhost', signupHost: null };
  }
}

/** The origin of another workspace (registration moves the browser there). */
export function workspaceOrigin(domain: string, config: AppConfig, location: Location = window.location): string {
  const port = location.port ? `:${location.port}` : '';
  return `${location.protocol}//${domain}.${config.baseDomain}${port}`;
}
