/**
 * Scorecards (docs/decisions.md#slos-and-scorecards, issue 28): admins and owners define them; every member reads the
 * results of the services they can see. Results are computed from the services' facts (scorecard-facts.ts) by the
 * domain's evaluators, stored with every change kept as history, and recomputed when a definition or an exemption
 * changes, when a service's own scorecards are read, within a second of a change of a fact they read (the refresh), and
 * by the sweep (jobs/scorecard-sweep.ts).
 */
import { randomUUID } from 'node:crypto';
import type {
  Scorecard,
  ScorecardCreate,
  ScorecardExemption,
  ScorecardHistory,
  ScorecardResult,
  ScorecardUpdate,
  ServiceScorecard,
} from '../../../contract/scorecards.js';
import { SCORECARD_HISTORY_MAX_DAYS } from '../../../contract/scorecards.js';
import { eventTitle } from '../../../domain/events.js';
import { isAdminRole } from '../../../domain/roles.js';
import { MS_PER_DAY, utcDate, utcDayStart } from '../../../domain/health.js';
import {
  appliesTo,
  dailyLevelCounts,
  definitionProblems,
  levelMovers,
  type LevelChange,
  levelName,
  NO_LEVEL_FILTER,
  scoreService,
  type AppliesTo,
  type RuleResult,
  type ScorecardLevel,
  type ScorecardRule,
} from '../../../domain/scorecards.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  deleteExemption,
  deleteScorecard as deleteScorecardRow,
  findExemption,
  findScorecard,
  insertExemption,
  insertScorecard,
  levelCounts,
  listExemptions,
  listLevelChanges,
  listResults,
  resultStamps,
  listScorecards as listScorecardRows,
  teamLevelCounts,
  pageResults,
  saveResults,
  updateScorecard as updateScorecardRow,
} from '../../db/repositories/scorecards.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { guardedTransaction } from '../../db/transactions.js';
import type { ScorecardExemptionRow, ScorecardResultRow, ScorecardRow } from '../../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { followSignal, type SignalMove } from '../alerting/lifecycle.js';
import { recordEvent, type NewEvent } from '../events/record-event.js';
import { agentColumns, type Agent } from '../accounts/agents.js';
import type { Caller } from '../accounts/auth.js';
import { visibleService } from '../catalogue/services.js';
import { listFactsServices, type FactsService } from '../../db/repositories/scorecard-facts.js';
import { listServiceNamesByIds } from '../../db/repositories/services.js';
import { listTeamHandlesByIds, listTeamIdsByHandles } from '../../db/repositories/teams.js';
import { gatherFacts } from './scorecard-facts.js';
import { serviceScope, viewerOf } from '../../cache/viewer.js';

export const SCORECARD_NOT_FOUND = 'The scorecard was not found';

interface Definition {
  row: ScorecardRow;
  appliesTo: AppliesTo;
  levels: ScorecardLevel[];
  rules: ScorecardRule[];
}

function definitionOf(row: ScorecardRow): Definition {
  return {
    row,
    appliesTo: JSON.parse(row.applies_to) as AppliesTo,
    levels: JSON.parse(row.levels) as ScorecardLevel[],
    rules: JSON.parse(row.rules) as ScorecardRule[],
  };
}

function requireAdmin(caller: Caller): void {
  if (caller.client || !isAdminRole(caller.user.role)) {
    throw forbidden('Only workspace admins and owners can manage scorecards');
  }
}

async function scorecardOr404(ctx: ServerContext, caller: Caller, handle: string): Promise<Definition> {
  const row = await findScorecard(ctx.database.db, caller.workspace.id, handle);
  if (!row) throw notFound(SCORECARD_NOT_FOUND);
  return definitionOf(row);
}

// ---- evaluation ----

/**
 * The rule results as stored: times as epoch ms; `asOf` is left out where the data is the catalogue's own (read
 * at the evaluation), so a result that did not change is not written again: it is true as of the last evaluation.
 */
type StoredRule = Omit<RuleResult, 'asOf'> & { asOf?: number };

function storedRules(rules: readonly RuleResult[], now: number): string {
  return JSON.stringify(rules.map(({ asOf, ...rule }): StoredRule => (asOf === now ? rule : { ...rule, asOf })));
}

/**
 * Recomputes the results of `cards` (every scorecard of the workspace when left out) for `serviceIds` (every
 * service when left out), stores what changed (a change of level, score or any rule's state is also kept in the
 * history) and drops the results of services a scorecard no longer applies to. Answers how many results changed.
 */
export async function evaluateScorecards(
  ctx: ServerContext,
  workspaceId: string,
  options: { cards?: Definition[]; serviceIds?: readonly string[] } = {},
): Promise<number> {
  const db = ctx.database.db;
  const cards = options.cards ?? (await listScorecardRows(db, workspaceId)).map(definitionOf);
  if (cards.length === 0) return 0;
  const now = ctx.now().getTime();
  const services: FactsService[] = await listFactsServices(db, workspaceId, options.serviceIds);
  const facts = await gatherFacts(db, workspaceId, services, now);
  const cardIds = cards.map((card) => card.row.id);
  const exempt = new Map<string, Set<string>>();
  for (const exemption of await listExemptions(db, workspaceId, { scorecardIds: cardIds, nowIso: isoNow(ctx) })) {
    const key = `${exemption.scorecard_id} ${exemption.service_id}`;
    exempt.set(key, (exempt.get(key) ?? new Set()).add(exemption.rule_key));
  }
  const stored = new Map(
    (await listResults(db, cardIds, options.serviceIds ?? null)).map((row) => [
      `${row.scorecard_id} ${row.service_id}`,
      row,
    ]),
  );
  const upserts: Parameters<typeof saveResults>[1]['upserts'][number][] = [];
  const announcements = new Map<string, ScorecardNews[]>();
  /** A level that dropped opens the service's scorecard alert; one that rose again resolves it. */
  const levelMoves = new Map<string, Omit<SignalMove, 'workspaceId'>>();
  const removals: Parameters<typeof saveResults>[1]['removals'][number][] = [];
  for (const card of cards) {
    for (const service of services) {
      const key = `${card.row.id} ${service.id}`;
      const before = stored.get(key);
      const serviceFacts = facts.get(service.id)!;
      if (!appliesTo(card.appliesTo, serviceFacts)) {
        if (before) {
          removals.push({ scorecard_id: card.row.id, service_id: service.id, workspace_id: workspaceId, at: now });
        }
        continue;
      }
      const result = scoreService(card, serviceFacts, exempt.get(key));
      const levelRank = result.level === null ? -1 : card.levels.findIndex((level) => level.key === result.level);
      const rules = storedRules(result.rules, now);
      const ownerOnly = service.visibility === 'owner' ? 1 : 0;
      const changed =
        !before ||
        before.level_rank !== levelRank ||
        before.score !== result.score ||
        statesOf(before.rules) !== statesOf(rules);
      const same =
        before &&
        !changed &&
        before.rules === rules &&
        before.service_name === service.name &&
        before.owner_team_id === service.owner_team_id &&
        before.owner_only === ownerOnly;
      if (same) continue;
      const news = newsOf(card, service.id, before, { levelRank, rules: result.rules }, now);
      if (news.length > 0) announcements.set(key, news);
      if (before && levelRank !== before.level_rank) {
        const dropped = news.find((item) => item.type === 'scorecard.level_dropped');
        levelMoves.set(key, {
          serviceId: service.id,
          source: 'scorecard',
          severity: dropped ? 'warning' : null,
          summary: dropped ? eventTitle(dropped.type, dropped.data) : `${card.row.name}: back up a level`,
          at: new Date(now),
        });
      }
      upserts.push({
        scorecard_id: card.row.id,
        service_id: service.id,
        workspace_id: workspaceId,
        owner_team_id: service.owner_team_id,
        service_name: service.name,
        owner_only: ownerOnly,
        level_rank: levelRank,
        score: result.score,
        rules,
        evaluated_at: now,
        changed,
      });
    }
  }
  const keyOf = (write: { scorecard_id: string; service_id: string }) => `${write.scorecard_id} ${write.service_id}`;
  return guardedTransaction(db, async (trx) => {
    // A result another evaluation wrote since this one read it (another process, or the sweep beside a refresh)
    // is left as it is, with its history and news: each change is kept and told once.
    const stamps = await resultStamps(trx, [...upserts, ...removals]);
    const unmoved = (write: { scorecard_id: string; service_id: string }) => {
      const before = stored.get(keyOf(write));
      return (stamps.get(keyOf(write)) ?? null) === (before ? Number(before.evaluated_at) : null);
    };
    const saved = { upserts: upserts.filter(unmoved), removals: removals.filter(unmoved) };
    if (saved.upserts.length || saved.removals.length) await saveResults(trx, saved);
    for (const upsert of saved.upserts) {
      for (const event of announcements.get(keyOf(upsert)) ?? []) {
        await recordEvent(trx, { ...event, workspace_id: workspaceId });
      }
      const moved = levelMoves.get(keyOf(upsert));
      if (moved) await followSignal(trx, { ...moved, workspaceId });
    }
    if (options.serviceIds === undefined) {
      for (const card of cards) await updateScorecardRow(trx, card.row.id, { evaluated_at: now });
    }
    return saved.upserts.length + saved.removals.length;
  });
}

const WEEK_MS = 7 * 86_400_000;
type ScorecardNews =
  | Omit<NewEvent<'scorecard.level_dropped'>, 'workspace_id'>
  | Omit<NewEvent<'scorecard.rule_will_fail'>, 'workspace_id'>;
const SCORECARD_AGENT: Agent = { id: null, name: 'Beacon scorecards' };

/**
 * What the owning team is told of a new result (issue 28): a drop to a lower level, and a passing rule on a date
 * that will now fail within a week (once: not when it was already due within a week at the last result).
 */
function newsOf(
  card: Definition,
  serviceId: string,
  before: ScorecardResultRow | undefined,
  after: { levelRank: number; rules: readonly RuleResult[] },
  now: number,
): ScorecardNews[] {
  const common = {
    profile_type: 'service' as const,
    profile_id: serviceId,
    ...agentColumns(SCORECARD_AGENT),
    created_at: new Date(now).toISOString(),
  };
  const news: ScorecardNews[] = [];
  if (before && after.levelRank < before.level_rank) {
    news.push({
      ...common,
      type: 'scorecard.level_dropped',
      data: {
        scorecard: card.row.name,
        from: levelName(card.levels, levelKey(card, before.level_rank)),
        to: after.levelRank < 0 ? null : levelName(card.levels, levelKey(card, after.levelRank)),
      },
    });
  }
  const earlier = new Map(
    before ? (JSON.parse(before.rules) as StoredRule[]).map((rule) => [rule.key, rule] as const) : [],
  );
  const dueBefore = before ? Number(before.evaluated_at) + WEEK_MS : 0;
  for (const rule of after.rules) {
    if (rule.state !== 'pass' || rule.failsAt === undefined || rule.failsAt > now + WEEK_MS) continue;
    const was = earlier.get(rule.key);
    if (was?.state === 'pass' && was.failsAt !== undefined && was.failsAt <= dueBefore) continue;
    const name = card.rules.find((r) => r.key === rule.key)?.name ?? rule.key;
    news.push({
      ...common,
      type: 'scorecard.rule_will_fail',
      data: { scorecard: card.row.name, rule: name, fails_at: new Date(rule.failsAt).toISOString() },
    });
  }
  return news;
}

/** The rules' keys and states, the part of a result whose change is history. */
function statesOf(rulesJson: string): string {
  return (JSON.parse(rulesJson) as StoredRule[]).map((rule) => `${rule.key}:${rule.state}`).join(',');
}

// ---- answers ----

async function teamHandles(db: Db, workspaceId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await listTeamHandlesByIds(db, workspaceId, ids);
  return new Map(rows.map((row) => [row.id, row.handle]));
}

async function teamIdsOf(db: Db, workspaceId: string, handles: readonly string[]): Promise<string[]> {
  if (handles.length === 0) return [];
  const rows = await listTeamIdsByHandles(db, workspaceId, handles);
  const unknown = handles.find((handle) => !rows.some((row) => row.handle === handle));
  if (unknown) throw badRequest(`No team ${unknown} in this workspace`, { applies_to: [`No team ${unknown}`] });
  return handles.map((handle) => rows.find((row) => row.handle === handle)!.id);
}

async function toScorecards(ctx: ServerContext, caller: Caller, cards: Definition[]): Promise<Scorecard[]> {
  const db = ctx.database.db;
  const scope = serviceScope(caller, await viewerOf(ctx, caller));
  const counts = await levelCounts(
    db,
    caller.workspace.id,
    scope,
    cards.map((card) => card.row.id),
  );
  const handles = await teamHandles(db, caller.workspace.id, [
    ...new Set(cards.flatMap((card) => card.appliesTo.teams ?? [])),
  ]);
  return cards.map((card) => {
    const mine = counts.filter((count) => count.scorecard_id === card.row.id);
    const at = (rank: number) => mine.find((count) => count.level_rank === rank)?.services ?? 0;
    const { teams, stages, visibility } = card.appliesTo;
    return {
      handle: card.row.handle,
      name: card.row.name,
      description: card.row.description,
      applies_to: {
        ...(stages ? { stages: [...stages] } : {}),
        ...(visibility ? { visibility: [...visibility] } : {}),
        ...(teams ? { teams: teams.map((id) => handles.get(id)).filter((h) => h !== undefined) } : {}),
      },
      levels: card.levels,
      rules: card.rules.map((rule) => ({ ...rule, params: { ...rule.params }, remediation: rule.remediation ?? null })),
      distribution: [
        { level: null, services: at(-1) },
        ...card.levels.map((level, rank) => ({ level: level.key, services: at(rank) })),
      ],
      created_at: card.row.created_at,
      updated_at: card.row.updated_at,
    };
  });
}

/** When a stored result is true as of: its own evaluation, or the scorecard's later one that left it unchanged. */
const evaluatedAt = (card: Definition, row: ScorecardResultRow) =>
  Math.max(Number(row.evaluated_at), Number(card.row.evaluated_at));

/** Epoch ms as ISO text, each distinct time formatted once (a page's rules share a few times). */
function isoTimes(): (ms: number) => string {
  const seen = new Map<number, string>();
  return (ms) => {
    let text = seen.get(ms);
    if (text === undefined) seen.set(ms, (text = new Date(ms).toISOString()));
    return text;
  };
}

function ruleAnswers(rulesJson: string, evaluated: number, iso = isoTimes()) {
  return (JSON.parse(rulesJson) as StoredRule[]).map((rule) => ({
    key: rule.key,
    state: rule.state,
    value: rule.value,
    as_of: iso(rule.asOf ?? evaluated),
    ...(rule.failsAt !== undefined ? { fails_at: iso(rule.failsAt) } : {}),
  }));
}

const levelKey = (card: Definition, rank: number) => (rank < 0 ? null : (card.levels[rank]?.key ?? null));

export async function listScorecards(ctx: ServerContext, caller: Caller): Promise<Scorecard[]> {
  const cards = (await listScorecardRows(ctx.database.db, caller.workspace.id)).map(definitionOf);
  return toScorecards(ctx, caller, cards);
}

/** One scorecard, with its level spread per owner team (the teams with at least one service on it, by name). */
export async function getScorecard(ctx: ServerContext, caller: Caller, handle: string): Promise<Scorecard> {
  const card = await scorecardOr404(ctx, caller, handle);
  const [answer] = await toScorecards(ctx, caller, [card]);
  const scope = serviceScope(caller, await viewerOf(ctx, caller));
  const rows = await teamLevelCounts(ctx.database.db, caller.workspace.id, scope, card.row.id);
  const teams = new Map<string, { team: { handle: string; name: string }; counts: Map<number, number> }>();
  for (const row of rows) {
    let team = teams.get(row.team_id);
    if (!team)
      teams.set(row.team_id, (team = { team: { handle: row.team_handle, name: row.team_name }, counts: new Map() }));
    team.counts.set(row.level_rank, row.services);
  }
  return {
    ...answer!,
    teams: [...teams.values()].map(({ team, counts }) => ({
      team,
      distribution: [-1, ...card.levels.map((_, rank) => rank)].map((rank) => ({
        level: levelKey(card, rank),
        services: counts.get(rank) ?? 0,
      })),
    })),
  };
}

export async function createScorecard(ctx: ServerContext, caller: Caller, input: ScorecardCreate): Promise<Scorecard> {
  requireAdmin(caller);
  const db = ctx.database.db;
  if (await findScorecard(db, caller.workspace.id, input.handle)) {
    throw conflict('Another scorecard has this handle', { handle: ['Another scorecard has this handle'] });
  }
  const teams = await teamIdsOf(db, caller.workspace.id, input.applies_to?.teams ?? []);
  const at = isoNow(ctx);
  await insertScorecard(db, {
    id: randomUUID(),
    workspace_id: caller.workspace.id,
    handle: input.handle,
    name: input.name,
    description: input.description ?? '',
    applies_to: JSON.stringify({ ...input.applies_to, ...(input.applies_to?.teams ? { teams } : {}) }),
    levels: JSON.stringify(input.levels),
    rules: JSON.stringify(input.rules),
    created_at: at,
    updated_at: at,
  });
  const card = await scorecardOr404(ctx, caller, input.handle);
  await evaluateScorecards(ctx, caller.workspace.id, { cards: [card] });
  return (await toScorecards(ctx, caller, [card]))[0]!;
}

export async function updateScorecard(
  ctx: ServerContext,
  caller: Caller,
  handle: string,
  input: ScorecardUpdate,
): Promise<Scorecard> {
  requireAdmin(caller);
  const db = ctx.database.db;
  const current = await scorecardOr404(ctx, caller, handle);
  const levels = input.levels ?? current.levels;
  const rules = input.rules ?? current.rules;
  const problems = definitionProblems({ levels, rules });
  if (problems.length > 0) throw badRequest(problems[0]!, { rules: problems });
  const teams = input.applies_to?.teams ? await teamIdsOf(db, caller.workspace.id, input.applies_to.teams) : undefined;
  await updateScorecardRow(db, current.row.id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.applies_to !== undefined
      ? { applies_to: JSON.stringify({ ...input.applies_to, ...(teams ? { teams } : {}) }) }
      : {}),
    levels: JSON.stringify(levels),
    rules: JSON.stringify(rules),
    updated_at: isoNow(ctx),
  });
  const card = await scorecardOr404(ctx, caller, handle);
  await evaluateScorecards(ctx, caller.workspace.id, { cards: [card] });
  return (await toScorecards(ctx, caller, [card]))[0]!;
}

export async function deleteScorecard(ctx: ServerContext, caller: Caller, handle: string): Promise<void> {
  requireAdmin(caller);
  const card = await scorecardOr404(ctx, caller, handle);
  await ctx.database.db.transaction().execute((trx) => deleteScorecardRow(trx, card.row.id));
}

export async function listScorecardResults(
  ctx: ServerContext,
  caller: Caller,
  handle: string,
  query: { team?: string; level?: string; cursor: number; limit: number },
): Promise<{ items: ScorecardResult[]; total: number }> {
  const db = ctx.database.db;
  const card = await scorecardOr404(ctx, caller, handle);
  let levelRank: number | undefined;
  if (query.level !== undefined) {
    levelRank = query.level === NO_LEVEL_FILTER ? -1 : card.levels.findIndex((level) => level.key === query.level);
    if (levelRank === -2 || (levelRank === -1 && query.level !== NO_LEVEL_FILTER)) {
      throw badRequest(`No level ${query.level} on this scorecard`, { level: ['Not a level of this scorecard'] });
    }
  }
  let teamId: string | undefined;
  if (query.team !== undefined) [teamId] = await teamIdsOf(db, caller.workspace.id, [query.team]);
  const scope = serviceScope(caller, await viewerOf(ctx, caller));
  const page = await pageResults(db, caller.workspace.id, scope, card.row.id, {
    teamId,
    levelRank,
    cursor: query.cursor,
    limit: query.limit,
  });
  const iso = isoTimes();
  return {
    total: page.total,
    items: page.rows.map((row) => ({
      service: { handle: row.service_handle, name: row.service_name },
      team: { handle: row.team_handle, name: row.team_name },
      level: levelKey(card, row.level_rank),
      score: row.score,
      rules: ruleAnswers(row.rules, evaluatedAt(card, row), iso),
      evaluated_at: iso(evaluatedAt(card, row)),
    })),
  };
}

/** The days from `from` to `to` (UTC dates, inclusive). */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = utcDayStart(from); at <= utcDayStart(to); at += MS_PER_DAY) days.push(utcDate(at));
  return days;
}

export async function getScorecardHistory(
  ctx: ServerContext,
  caller: Caller,
  handle: string,
  query: { from?: string; to?: string },
): Promise<ScorecardHistory> {
  const card = await scorecardOr404(ctx, caller, handle);
  const to = query.to ?? utcDate(ctx.now().getTime());
  const from = query.from ?? utcDate(utcDayStart(to) - 29 * MS_PER_DAY);
  const days = daysBetween(from, to);
  if (days.length === 0) throw badRequest('The range ends before it starts', { from: ['After to'] });
  if (days.length > SCORECARD_HISTORY_MAX_DAYS) {
    throw badRequest(`At most ${SCORECARD_HISTORY_MAX_DAYS} days`, {
      from: [`At most ${SCORECARD_HISTORY_MAX_DAYS} days before to`],
    });
  }
  const end = utcDayStart(to) + MS_PER_DAY;
  const scope = serviceScope(caller, await viewerOf(ctx, caller));
  const rows = await listLevelChanges(ctx.database.db, caller.workspace.id, scope, card.row.id, end);
  const changes: LevelChange[] = rows.map((row) => ({ service: row.service_id, at: row.at, rank: row.level_rank }));
  // As the chart reads: the first day's bar against the last day's.
  const movers = levelMovers(changes, utcDayStart(from) + MS_PER_DAY, end);
  const moved = [...movers.improved, ...movers.regressed].map((m) => m.service);
  const names = new Map(
    moved.length === 0
      ? []
      : (await listServiceNamesByIds(ctx.database.db, caller.workspace.id, moved)).map(
          (row) => [row.id, { handle: row.handle, name: row.name }] as const,
        ),
  );
  const asMover = (m: { service: string; from: number; to: number }) => ({
    service: names.get(m.service)!,
    from: levelKey(card, m.from),
    to: levelKey(card, m.to),
  });
  return {
    from,
    to,
    days: dailyLevelCounts(changes, days, card.levels.length).map((day) => ({
      date: day.date,
      levels: day.counts.map((services, index) => ({ level: levelKey(card, index - 1), services })),
    })),
    improved: movers.improved.map(asMover),
    regressed: movers.regressed.map(asMover),
  };
}

function toExemption(row: ScorecardExemptionRow, serviceHandle: string): ScorecardExemption {
  return {
    id: row.id,
    service: serviceHandle,
    rule: row.rule_key,
    reason: row.reason,
    expires_at: row.expires_at,
    created_by: row.created_by,
    created_at: row.created_at,
  };
}

export async function createExemption(
  ctx: ServerContext,
  caller: Caller,
  handle: string,
  input: { service: string; rule: string; reason: string; expires_at: string },
): Promise<ScorecardExemption> {
  requireAdmin(caller);
  const card = await scorecardOr404(ctx, caller, handle);
  const { row: service } = await visibleService(ctx, caller, input.service);
  if (!card.rules.some((rule) => rule.key === input.rule)) {
    throw badRequest(`No rule ${input.rule} on this scorecard`, { rule: ['Not a rule of this scorecard'] });
  }
  const expiresAt = new Date(input.expires_at);
  if (expiresAt.getTime() <= ctx.now().getTime()) {
    throw badRequest('An exemption ends in the future', { expires_at: ['Must be in the future'] });
  }
  const row: ScorecardExemptionRow = {
    id: randomUUID(),
    workspace_id: caller.workspace.id,
    scorecard_id: card.row.id,
    service_id: service.id,
    rule_key: input.rule,
    reason: input.reason,
    expires_at: expiresAt.toISOString(),
    created_by: caller.user.name,
    created_at: isoNow(ctx),
  };
  await insertExemption(ctx.database.db, row);
  await evaluateScorecards(ctx, caller.workspace.id, { cards: [card], serviceIds: [service.id] });
  return toExemption(row, service.handle);
}

export async function removeExemption(ctx: ServerContext, caller: Caller, handle: string, id: string): Promise<void> {
  requireAdmin(caller);
  const card = await scorecardOr404(ctx, caller, handle);
  const row = await findExemption(ctx.database.db, card.row.id, id);
  if (!row) throw notFound('The exemption was not found');
  await deleteExemption(ctx.database.db, row.id);
  await evaluateScorecards(ctx, caller.workspace.id, { cards: [card], serviceIds: [row.service_id] });
}

/** The service's results on every scorecard that applies to it, evaluated now. */
export async function listServiceScorecards(
  ctx: ServerContext,
  caller: Caller,
  serviceHandle: string,
): Promise<ServiceScorecard[]> {
  const db = ctx.database.db;
  const { row: service } = await visibleService(ctx, caller, serviceHandle);
  const cards = (await listScorecardRows(db, caller.workspace.id)).map(definitionOf);
  if (cards.length === 0) return [];
  await evaluateScorecards(ctx, caller.workspace.id, { cards, serviceIds: [service.id] });
  // Just evaluated: what did not change is true as of now.
  const evaluated = ctx.now().getTime();
  const cardIds = cards.map((card) => card.row.id);
  const results = new Map<string, ScorecardResultRow>(
    (await listResults(db, cardIds, [service.id])).map((row) => [row.scorecard_id, row]),
  );
  const exemptions = await listExemptions(db, caller.workspace.id, {
    scorecardIds: cardIds,
    serviceId: service.id,
    nowIso: isoNow(ctx),
  });
  return cards.flatMap((card) => {
    const result = results.get(card.row.id);
    if (!result) return [];
    const answers = new Map(ruleAnswers(result.rules, evaluated).map((rule) => [rule.key, rule]));
    return [
      {
        scorecard: { handle: card.row.handle, name: card.row.name, levels: card.levels },
        level: levelKey(card, result.level_rank),
        score: result.score,
        rules: card.rules.map((rule) => {
          const exemption = exemptions.find((e) => e.scorecard_id === card.row.id && e.rule_key === rule.key);
          return {
            ...answers.get(rule.key)!,
            name: rule.name,
            level: rule.level,
            remediation: rule.remediation ?? null,
            exemption: exemption ? toExemption(exemption, service.handle) : null,
          };
        }),
        evaluated_at: new Date(evaluated).toISOString(),
      },
    ];
  });
}
