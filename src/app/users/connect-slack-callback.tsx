import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { slackOperations } from '../../contract/operations/slack.js';
import { CallbackScreen, oauthCode, type CallbackOutcome } from '../components/callback-screen.js';
import { useAuth } from '../session/auth-context.js';

export const SLACK_CONNECTED = 'Connected to Slack successfully';
export const SLACK_CONNECT_FAILED = 'There was an error while connecting to Slack';

/**
 * /callbacks/connect-to-slack (spec/platform.md, chat connect): Slack's redirect after the signed-in user
 * authorised Beacon; in progress, then complete on success or failure; posts the code and goes to /.
 */
export default function ConnectSlackCallback() {
  const { api, state } = useAuth();
  const [params] = useSearchParams();
  const username = state.username;
  const run = useCallback(async (): Promise<CallbackOutcome> => {
    const token = oauthCode(params);
    if (!token || !username) return { ok: false, message: SLACK_CONNECT_FAILED };
    try {
      await api.call(slackOperations.connectToSlack, { params: { username }, body: { token } });
      return { ok: true, message: SLACK_CONNECTED };
    } catch {
      return { ok: false, message: SLACK_CONNECT_FAILED };
    }
  }, [api, params, username]);
  return <CallbackScreen title="Connecting to Slack" run={run} to="/" />;
}
