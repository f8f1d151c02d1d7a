import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { slackOperations } from '../../contract/operations/slack.js';
import { keys } from '../api/query-keys.js';
import { CallbackScreen, oauthCode, type CallbackOutcome } from '../components/callback-screen.js';
import { useAuth } from '../session/auth-context.js';
import { takeSlackState } from './integrations-api.js';

export const SLACK_LINKED = 'Slack workspace was linked';
export const SLACK_LINK_FAILED = 'There was an error while linking your Slack workspace';
export const SLACK_STATE_MISMATCH = 'The Slack authorisation did not come from this browser';

/**
 * /callbacks/slack-workspaces: Slack's redirect after an admin added the app to a Slack workspace. The state must
 * be the one this browser sent; the code is posted, and the admin goes back to /admin with a toast.
 */
export default function SlackWorkspaceCallback() {
  const { api } = useAuth();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const run = useCallback(async (): Promise<CallbackOutcome> => {
    if (!takeSlackState(params.get('state'))) return { ok: false, message: SLACK_STATE_MISMATCH };
    const token = oauthCode(params);
    if (!token) return { ok: false, message: SLACK_LINK_FAILED };
    try {
      await api.call(slackOperations.createSlackWorkspace, { body: { token } });
    } catch {
      return { ok: false, message: SLACK_LINK_FAILED };
    }
    void queryClient.invalidateQueries({ queryKey: keys.slackWorkspaces() });
    return { ok: true, message: SLACK_LINKED };
  }, [api, params, queryClient]);
  return <CallbackScreen title="Linking Slack" run={run} to="/admin" />;
}
