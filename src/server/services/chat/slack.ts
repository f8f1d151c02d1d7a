/**
 * Slack (docs/decisions.md#integrations): linking Slack workspaces (admins and owners), a person's Slack identity (chat
 * connect) and the channel each service posts its events to (editors). Off, and saying so, without the Slack variables.
 */
import { randomUUID } from 'node:crypto';
import type { ServiceChannel, SlackSettings, SlackWorkspace } from '../../../contract/slack.js';
import { isAdminRole } from '../../../domain/roles.js';
import { workspaceOrigin, type SlackConfig } from '../../config.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  deleteServiceChannel,
  findSlackWorkspace,
  insertServiceChannel,
  listServiceChannels,
  listSlackWorkspaces,
  updateServiceChannel,
  updateSlackWorkspace,
  upsertSlackUser,
  upsertSlackWorkspace,
} from '../../db/repositories/slack.js';
import type { ServiceChannelsTable, SlackWorkspacesTable } from '../../db/schema.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../errors.js';
import { exchangeSlackCode, slackErrorText, type SlackInstall } from '../../integrations/slack.js';
import type { Caller } from '../accounts/auth.js';
import { requireUnmanaged } from '../catalogue/managed-marks.js';
import { editableService, visibleService } from '../catalogue/services.js';
import { requireSelf } from '../accounts/users.js';

/**
 * What the bot needs: post to channels, public ones it was not invited to included; and read the history of
 * public and private channels (`channels:history`, `groups:history`), so that the chat outbox, retrying a post
 * whose answer it never heard, finds the message Slack took (by its metadata) rather than posting it twice.
 * Workspaces linked before these were asked for still work: the outbox posts without looking.
 */
const BOT_SCOPES = 'chat:write,chat:write.public,channels:read,channels:history,groups:history';
const NOT_CONFIGURED = 'Slack is not configured on this server';

/** Where Slack sends the browser back to: the app's callback screens on the workspace's host. */
function callbackUrl(ctx: ServerContext, caller: Caller, screen: 'slack-workspaces' | 'connect-to-slack'): string {
  return `${workspaceOrigin(ctx.config, caller.workspace.domain)}/callbacks/${screen}`;
}

function slackOf(ctx: ServerContext): SlackConfig {
  if (!ctx.config.slack) throw conflict(NOT_CONFIGURED);
  return ctx.config.slack;
}

export function slackSettings(ctx: ServerContext, caller: Caller): SlackSettings {
  const slack = ctx.config.slack;
  if (!slack) return { configured: false, install_url: null, connect_url: null };
  const page = (params: Record<string, string>) => {
    const url = new URL(slack.authorizeUrl);
    for (const [key, value] of Object.entries({ client_id: slack.clientId, ...params }))
      url.searchParams.set(key, value);
    return url.toString();
  };
  return {
    configured: true,
    install_url: page({ scope: BOT_SCOPES, redirect_uri: callbackUrl(ctx, caller, 'slack-workspaces') }),
    connect_url: page({ user_scope: 'identity.basic', redirect_uri: callbackUrl(ctx, caller, 'connect-to-slack') }),
  };
}

function requireAdmin(caller: Caller): void {
  if (!isAdminRole(caller.user.role)) throw forbidden('Only workspace admins and owners can manage Slack');
}

function toSlackWorkspace(row: Pick<SlackWorkspacesTable, 'id' | 'slack_team_name' | 'installed_by'>): SlackWorkspace {
  return { id: row.id, team: row.slack_team_name, user: row.installed_by };
}

/** Exchanges the code; Slack's refusal (a used or expired code) is the caller's 400, not our 500. */
async function exchange(
  ctx: ServerContext,
  caller: Caller,
  code: string,
  screen: 'slack-workspaces' | 'connect-to-slack',
) {
  const slack = slackOf(ctx);
  try {
    return await exchangeSlackCode(slack, code, callbackUrl(ctx, caller, screen));
  } catch (error) {
    ctx.logger.warn({ err: error }, 'Slack refused an OAuth code');
    throw badRequest(`Slack refused the authorisation: ${slackErrorText(error)}`, {
      token: ['Slack refused this code'],
    });
  }
}

function requireBotToken(install: SlackInstall): string {
  if (!install.token) throw badRequest('Slack gave no bot token', { token: ['Slack gave no bot token'] });
  return install.token;
}

export async function listWorkspaces(ctx: ServerContext, caller: Caller): Promise<SlackWorkspace[]> {
  requireAdmin(caller);
  return (await listSlackWorkspaces(ctx.database.db, caller.workspace.id)).map(toSlackWorkspace);
}

export async function linkWorkspace(ctx: ServerContext, caller: Caller, code: string): Promise<SlackWorkspace> {
  requireAdmin(caller);
  const install = await exchange(ctx, caller, code, 'slack-workspaces');
  const now = isoNow(ctx);
  const { db } = ctx.database;
  await upsertSlackWorkspace(db, {
    workspace_id: caller.workspace.id,
    slack_team_id: install.teamId,
    slack_team_name: install.teamName,
    bot_user_id: install.botUserId,
    installed_by: caller.user.name,
    token: ctx.secretBox.seal(requireBotToken(install)),
    created_at: now,
    updated_at: now,
  });
  const linked = (await listSlackWorkspaces(db, caller.workspace.id)).find(
    (row) => row.slack_team_id === install.teamId,
  );
  return toSlackWorkspace(linked!);
}

export async function reauthoriseWorkspace(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  code: string,
): Promise<SlackWorkspace> {
  requireAdmin(caller);
  const { db } = ctx.database;
  const row = await findSlackWorkspace(db, caller.workspace.id, id);
  if (!row) throw notFound('Slack workspace not found');
  const install = await exchange(ctx, caller, code, 'slack-workspaces');
  if (install.teamId !== row.slack_team_id) {
    throw badRequest('That code is for another Slack workspace', {
      token: ['That code is for another Slack workspace'],
    });
  }
  const change = {
    slack_team_name: install.teamName,
    bot_user_id: install.botUserId,
    installed_by: caller.user.name,
    token: ctx.secretBox.seal(requireBotToken(install)),
    updated_at: isoNow(ctx),
  };
  await updateSlackWorkspace(db, caller.workspace.id, id, change);
  return toSlackWorkspace({ ...row, ...change });
}

/** Chat connect: the person's Slack identity, for mentions and direct messages. */
export async function connectUser(ctx: ServerContext, caller: Caller, username: string, code: string): Promise<void> {
  const user = await requireSelf(ctx, caller, username, 'You can only connect your own Slack account');
  const install = await exchange(ctx, caller, code, 'connect-to-slack');
  if (!install.userId) throw badRequest('Slack did not say who you are', { token: ['Slack did not say who you are'] });
  await upsertSlackUser(ctx.database.db, {
    user_id: user.id,
    workspace_id: caller.workspace.id,
    slack_team_id: install.teamId,
    slack_user_id: install.userId,
    created_at: isoNow(ctx),
  });
}

// ---- service channels ----

function toChannel(row: Pick<ServiceChannelsTable, 'id' | 'provider' | 'channel_id'>): ServiceChannel {
  return { id: row.id, provider: row.provider, slack_channel: { id: row.channel_id } };
}

export async function listChannels(ctx: ServerContext, caller: Caller, service: string): Promise<ServiceChannel[]> {
  const { row } = await visibleService(ctx, caller, service);
  return (await listServiceChannels(ctx.database.db, caller.workspace.id, row.id)).map(toChannel);
}

export async function addChannel(ctx: ServerContext, caller: Caller, service: string, channel: string) {
  const { row } = await editableService(ctx, caller, service);
  await requireUnmanaged(ctx, caller.workspace.id, row, 'service', 'change its Slack channel', 'slack_channel');
  const now = isoNow(ctx);
  const created = {
    id: randomUUID(),
    workspace_id: caller.workspace.id,
    service_id: row.id,
    provider: 'slack' as const,
    channel_id: channel,
    created_at: now,
    updated_at: now,
  };
  const taken = () =>
    conflict('The service already has a Slack channel', { provider: ['Already has a Slack channel'] });
  const { db } = ctx.database;
  if ((await listServiceChannels(db, caller.workspace.id, row.id)).length > 0) throw taken();
  try {
    await insertServiceChannel(db, created);
  } catch (error) {
    if (!(error instanceof HttpError) && (await listServiceChannels(db, caller.workspace.id, row.id)).length > 0)
      throw taken();
    throw error;
  }
  return toChannel(created);
}

export async function changeChannel(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  provider: string,
  channel: string,
) {
  const { row } = await editableService(ctx, caller, service);
  await requireUnmanaged(ctx, caller.workspace.id, row, 'service', 'change its Slack channel', 'slack_channel');
  const changed = await updateServiceChannel(ctx.database.db, caller.workspace.id, row.id, provider, {
    channel_id: channel,
    updated_at: isoNow(ctx),
  });
  if (!changed) throw notFound('Channel not found');
  const [current] = await listServiceChannels(ctx.database.db, caller.workspace.id, row.id);
  return toChannel(current!);
}

export async function removeChannel(ctx: ServerContext, caller: Caller, service: string, provider: string) {
  const { row } = await editableService(ctx, caller, service);
  await requireUnmanaged(ctx, caller.workspace.id, row, 'service', 'change its Slack channel', 'slack_channel');
  if (!(await deleteServiceChannel(ctx.database.db, caller.workspace.id, row.id, provider))) {
    throw notFound('Channel not found');
  }
}
