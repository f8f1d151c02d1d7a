/**
 * Slack through its own SDK (docs/decisions.md#integrations), pointed at BEACON_SLACK_API_URL (a local stand-in in the
 * tests). Never the SDK's default retries (about 30 minutes of them): the chat outbox retries with its own backoff,
 * and a request path fails fast.
 */
import { ErrorCode, WebClient, type CodedError } from '@slack/web-api';
import type { SlackConfig } from '../config.js';

/** `timeoutMs`: how long a call may go unanswered (10 s unless given; the tests give less). */
export function slackClient(config: SlackConfig, token?: string, options: { timeoutMs?: number } = {}): WebClient {
  return new WebClient(token, {
    slackApiUrl: config.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 10_000,
  });
}

/** Whether Slack answered and refused (`ok: false`: `missing_scope`, `not_in_channel`, ...), not a lost call. */
export function isSlackRefusal(error: unknown): boolean {
  return (error as Partial<CodedError>).code === ErrorCode.PlatformError;
}

export interface SlackInstall {
  teamId: string;
  teamName: string;
  /** The bot token (installs) or the user's token (chat connect). */
  token: string | undefined;
  botUserId: string | null;
  userId: string | null;
}

/** Exchanges the code of Slack's OAuth redirect (`oauth.v2.access`). */
export async function exchangeSlackCode(config: SlackConfig, code: string, redirectUri: string): Promise<SlackInstall> {
  const result = await slackClient(config).oauth.v2.access({
    client_id: config.clientId,
    client_secret: config.clientSecret,
    code,
    redirect_uri: redirectUri,
  });
  if (!result.team?.id) throw new Error('Slack answered without a team');
  return {
    teamId: result.team.id,
    teamName: result.team.name ?? result.team.id,
    token: result.access_token ?? result.authed_user?.access_token,
    botUserId: result.bot_user_id ?? null,
    userId: result.authed_user?.id ?? null,
  };
}

/** When Slack asked us to slow down, how long (ms); undefined for other errors. */
export function slackRetryAfterMs(error: unknown): number | undefined {
  const coded = error as Partial<CodedError> & { retryAfter?: number };
  return coded.code === ErrorCode.RateLimitedError ? Math.max(1, coded.retryAfter ?? 1) * 1000 : undefined;
}

/** Slack's own error name (`channel_not_found`, `invalid_auth`, ...) or the error's message. */
export function slackErrorText(error: unknown): string {
  const data = (error as { data?: { error?: string } }).data;
  return data?.error ?? (error instanceof Error ? error.message : String(error));
}
