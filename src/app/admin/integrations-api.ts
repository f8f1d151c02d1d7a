/**
 * The admin area's Slack and single sign-on reads and writes (spec/platform.md "Admin area";
 * docs/decisions.md#integrations).
 */
import { queryOptions } from '@tanstack/react-query';
import { slackOperations } from '../../contract/operations/slack.js';
import { ssoProviderOperations } from '../../contract/operations/sso.js';
import type { ApiClient } from '../api/client.js';
import { keys } from '../api/query-keys.js';

export function getSlackSettingsQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: keys.slackSettings(), queryFn: () => api.call(slackOperations.getSlackSettings) });
}

export function getSlackWorkspacesQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: keys.slackWorkspaces(),
    queryFn: () => api.call(slackOperations.listSlackWorkspaces),
  });
}

export function getSsoProvidersQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: keys.ssoProviders(),
    queryFn: () => api.call(ssoProviderOperations.listSsoProviders),
  });
}

export function getSsoProviderQueryOptions(api: ApiClient, handle: string) {
  return queryOptions({
    queryKey: keys.ssoProvider(handle),
    queryFn: () => api.call(ssoProviderOperations.getSsoProvider, { params: { provider: handle } }),
  });
}

/** The state sent with Slack's authorise page and checked when Slack comes back (against forged returns). */
export const SLACK_STATE_KEY = 'beacon.slack-install-state';

/** `install_url` with a fresh random state, kept in sessionStorage for the callback to check. */
export function slackInstallHref(installUrl: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const state = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  sessionStorage.setItem(SLACK_STATE_KEY, state);
  const url = new URL(installUrl);
  url.searchParams.set('state', state);
  return url.toString();
}

/** Takes (and clears) the kept state: true only when Slack sent the same one back. */
export function takeSlackState(returned: string | null): boolean {
  const kept = sessionStorage.getItem(SLACK_STATE_KEY);
  sessionStorage.removeItem(SLACK_STATE_KEY);
  return kept !== null && returned !== null && kept === returned;
}
