/**
 * Alert policies (docs/api.md, "Alert policies"): a team's (its admins and workspace admins set it), the
 * workspace's default for teams without one (admins), and the channels one service adds (its editors). Members
 * read them; guests none. Targets are written by handle and stored by id, so a rename keeps them.
 */
import type { AlertChannel, AlertPolicy, AlertPolicyInput } from '../../../contract/alerts.js';
import type { EscalationTarget } from '../../../domain/alerts.js';
import { canAdminTeam, type Viewer } from '../../../domain/catalogue.js';
import { isAdminRole } from '../../../domain/roles.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  DEFAULT_POLICY_KEY,
  findPolicy,
  listChannelsByIds,
  listServiceChannelIds,
  putPolicy,
  replaceServiceChannels,
} from '../../db/repositories/alerts.js';
import { listTeamHandlesByIds, listTeamIdsByHandles } from '../../db/repositories/teams.js';
import { listUserRefsByIds, listUsersByHandles } from '../../db/repositories/users.js';
import { badRequest, forbidden } from '../../errors.js';
import { viewerOf } from '../../cache/viewer.js';
import type { Caller } from '../accounts/auth.js';
import { parsePolicy, policyColumns, type StoredPolicy } from '../alerting/policy.js';
import { editableService, visibleService } from '../catalogue/services.js';
import { findTeamOr404 } from '../catalogue/teams.js';
import { toChannels, usableChannels } from './channels.js';

async function readerViewer(ctx: ServerContext, caller: Caller): Promise<Viewer> {
  const viewer = await viewerOf(ctx, caller);
  if (viewer.role === 'guest') throw forbidden('Guests cannot see alert policies');
  return viewer;
}

/**
 * The stored policy as answered: targets by handle and name, those that no longer exist left out; each rule's channels
 * also by name, so a member who may not list the channels still reads whom the policy tells.
 */
async function toPolicy(
  ctx: ServerContext,
  workspaceId: string,
  policy: StoredPolicy,
  source: AlertPolicy['source'],
  edit: boolean,
): Promise<AlertPolicy> {
  const db = ctx.database.db;
  const targets = policy.escalation.flatMap((level) => level.targets);
  const userIds = targets.flatMap((t) => ('user' in t ? [t.user] : []));
  const teamIds = targets.flatMap((t) => ('team' in t ? [t.team] : []));
  const channelIds = [
    ...targets.flatMap((t) => ('channel' in t ? [t.channel] : [])),
    ...policy.rules.flatMap((rule) => rule.channels),
  ];
  const [users, teams, channels] = await Promise.all([
    listUserRefsByIds(db, workspaceId, userIds),
    teamIds.length > 0 ? listTeamHandlesByIds(db, workspaceId, teamIds) : Promise.resolve([]),
    listChannelsByIds(db, workspaceId, channelIds),
  ]);
  const userById = new Map(users.map((u) => [u.id, u]));
  const teamById = new Map(teams.map((t) => [t.id, t]));
  const channelById = new Map(channels.map((c) => [c.id, c]));
  type AnsweredTarget = AlertPolicy['escalation'][number]['targets'][number];
  const answerTarget = (target: EscalationTarget): AnsweredTarget[] => {
    if ('user' in target) {
      const user = userById.get(target.user);
      return user ? [{ user: user.handle, name: user.name }] : [];
    }
    if ('team' in target) {
      const team = teamById.get(target.team);
      return team ? [{ team: team.handle, name: team.name }] : [];
    }
    const channel = channelById.get(target.channel);
    return channel ? [{ channel: channel.id, name: channel.name }] : [];
  };
  return {
    rules: policy.rules.map((rule) => ({
      ...rule,
      channel_names: rule.channels.flatMap((id) => {
        const channel = channelById.get(id);
        return channel ? [channel.name] : [];
      }),
    })),
    escalation: policy.escalation.map((level) => ({
      after_minutes: level.afterSeconds / 60,
      after_seconds: level.afterSeconds,
      targets: level.targets.flatMap(answerTarget),
    })),
    repeat: policy.repeat,
    notify_when_impacted: policy.notifyWhenImpacted,
    source,
    permissions: { edit },
  };
}

/** The written policy, checked and resolved to ids: every user, team and channel must exist and be usable. */
async function storedFrom(
  ctx: ServerContext,
  workspaceId: string,
  teamId: string | null,
  input: AlertPolicyInput,
): Promise<StoredPolicy> {
  const db = ctx.database.db;
  const ruleChannels = input.rules.flatMap((rule) => rule.channels);
  await usableChannels(ctx, workspaceId, teamId, [...new Set(ruleChannels)], 'rules');
  const targets = input.escalation.flatMap((level) => level.targets);
  const userHandles = targets.flatMap((t) => ('user' in t ? [t.user] : []));
  const teamHandles = targets.flatMap((t) => ('team' in t ? [t.team] : []));
  const channelIds = targets.flatMap((t) => ('channel' in t ? [t.channel] : []));
  const users = new Map((await listUsersByHandles(db, workspaceId, userHandles)).map((u) => [u.handle, u.id]));
  const teams = new Map((await listTeamIdsByHandles(db, workspaceId, teamHandles)).map((t) => [t.handle, t.id]));
  await usableChannels(ctx, workspaceId, teamId, [...new Set(channelIds)], 'escalation');
  const missing = [
    ...userHandles.filter((h) => !users.has(h)).map((h) => `No user @${h}`),
    ...teamHandles.filter((h) => !teams.has(h)).map((h) => `No team @${h}`),
  ];
  if (missing.length > 0) throw badRequest('An escalation target does not exist', { escalation: missing });
  return {
    rules: input.rules.map((rule) => ({
      severities: [...new Set(rule.severities)],
      channels: [...new Set(rule.channels)],
    })),
    escalation: input.escalation.map((level) => ({
      afterSeconds: level.after_seconds ?? (level.after_minutes ?? 0) * 60,
      targets: level.targets.map((target): EscalationTarget => {
        if ('user' in target) return { user: users.get(target.user)! };
        if ('team' in target) return { team: teams.get(target.team)! };
        return { channel: target.channel };
      }),
    })),
    repeat: input.repeat,
    notifyWhenImpacted: input.notify_when_impacted,
  };
}

export async function getWorkspacePolicy(ctx: ServerContext, caller: Caller): Promise<AlertPolicy> {
  const viewer = await readerViewer(ctx, caller);
  const row = await findPolicy(ctx.database.db, caller.workspace.id, DEFAULT_POLICY_KEY);
  return toPolicy(ctx, caller.workspace.id, parsePolicy(row), row ? 'workspace' : 'none', isAdminRole(viewer.role));
}

export async function setWorkspacePolicy(ctx: ServerContext, caller: Caller, input: AlertPolicyInput) {
  const viewer = await readerViewer(ctx, caller);
  if (!isAdminRole(viewer.role))
    throw forbidden("Only workspace admins and owners can set the workspace's alert policy");
  const policy = await storedFrom(ctx, caller.workspace.id, null, input);
  await putPolicy(ctx.database.db, {
    workspace_id: caller.workspace.id,
    team_key: DEFAULT_POLICY_KEY,
    ...policyColumns(policy),
    updated_at: isoNow(ctx),
  });
  return getWorkspacePolicy(ctx, caller);
}

export async function getTeamPolicy(ctx: ServerContext, caller: Caller, teamHandle: string): Promise<AlertPolicy> {
  const viewer = await readerViewer(ctx, caller);
  const team = await findTeamOr404(ctx, caller.workspace.id, teamHandle);
  const db = ctx.database.db;
  const own = await findPolicy(db, caller.workspace.id, team.id);
  const fallback = own ? undefined : await findPolicy(db, caller.workspace.id, DEFAULT_POLICY_KEY);
  const source = own ? 'team' : fallback ? 'workspace' : 'none';
  return toPolicy(ctx, caller.workspace.id, parsePolicy(own ?? fallback), source, canAdminTeam(viewer, team.id));
}

export async function setTeamPolicy(ctx: ServerContext, caller: Caller, teamHandle: string, input: AlertPolicyInput) {
  const viewer = await readerViewer(ctx, caller);
  const team = await findTeamOr404(ctx, caller.workspace.id, teamHandle);
  if (!canAdminTeam(viewer, team.id)) {
    throw forbidden("Only the team's admins and workspace admins can set the team's alert policy");
  }
  const policy = await storedFrom(ctx, caller.workspace.id, team.id, input);
  await putPolicy(ctx.database.db, {
    workspace_id: caller.workspace.id,
    team_key: team.id,
    ...policyColumns(policy),
    updated_at: isoNow(ctx),
  });
  return getTeamPolicy(ctx, caller, teamHandle);
}

export async function getServiceChannels(ctx: ServerContext, caller: Caller, handle: string): Promise<AlertChannel[]> {
  await readerViewer(ctx, caller);
  const { row } = await visibleService(ctx, caller, handle);
  const ids = await listServiceChannelIds(ctx.database.db, row.id);
  return toChannels(ctx, caller.workspace.id, await listChannelsByIds(ctx.database.db, caller.workspace.id, ids));
}

/** The channels a service adds to its team's policy: added, never taking one of the team's away. */
export async function setServiceChannels(ctx: ServerContext, caller: Caller, handle: string, channelIds: string[]) {
  await readerViewer(ctx, caller);
  const { row } = await editableService(ctx, caller, handle);
  const ids = [...new Set(channelIds)];
  await usableChannels(ctx, caller.workspace.id, row.owner_team_id, ids, 'channels');
  await replaceServiceChannels(ctx.database.db, caller.workspace.id, row.id, ids);
  return getServiceChannels(ctx, caller, handle);
}
