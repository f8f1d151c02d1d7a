import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Scorecard, ScorecardResult, ServiceScorecard } from '../../src/contract/scorecards.js';
import { startScorecardRefresh, sweepScorecards } from '../../src/server/jobs/scorecard-sweep.js';
import { recordEvent } from '../../src/server/services/events/record-event.js';
import { updateService } from '../../src/server/db/repositories/services.js';
import { keptAnswersOf } from '../../src/server/cache/catalogue-cache.js';
import { evaluateScorecards } from '../../src/server/services/reliability/scorecards.js';
import { createService, seedWorkspace, type SeededWorkspace, workspaceIdOf } from '../support/fixtures.js';
import { callAs, json, startTestServer, type Member, type Method, type TestServer } from '../support/server.js';

/** Issue 28, scorecards: definitions, results, exemptions through the real server, on the run's engine. */
let server: TestServer;
let cast: SeededWorkspace;

const call = (actor: Member, method: Method, url: string, payload?: object) =>
  callAs(server, actor, method, url, payload);

const READINESS = {
  handle: 'readiness',
  name: 'Production readiness',
  description: 'What every service we run should have',
  levels: [
    { key: 'bronze', name: 'Bronze' },
    { key: 'silver', name: 'Silver' },
  ],
  rules: [
    {
      key: 'described',
      name: 'Has a description',
      level: 'bronze',
      weight: 1,
      evaluator: 'field_set',
      params: { field: 'description' },
      remediation: 'Say in a sentence what the service does.',
    },
    {
      key: 'runbook',
      name: 'Has a runbook',
      level: 'silver',
      weight: 2,
      evaluator: 'has_link',
      params: { kind: 'runbook' },
    },
    {
      key: 'no-incident',
      name: 'No open incident',
      level: 'silver',
      weight: 3,
      evaluator: 'no_open_incident',
      params: { min_severity: 'error' },
    },
  ],
};

const results = async (actor: Member, query = '') => {
  const response = await call(actor, 'GET', `/api/scorecards/readiness/results${query}`);
  expect(response.statusCode).toBe(200);
  return { total: Number(response.headers.total), items: json<ScorecardResult[]>(response) };
};
const serviceNamed = (workspaceId: string, name: string) =>
  server.ctx.database.db
    .selectFrom('services')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
const byHandle = (items: ScorecardResult[], handle: string) => items.find((item) => item.service.handle === handle);

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server, { domain: 'scoreco' });
  await createService(server, cast.teamAdmin, cast.team.handle, { name: 'Checkout', handle: 'checkout' });
  await createService(server, cast.teamAdmin, cast.team.handle, { name: 'Payments API', handle: 'payments-api' });
  await createService(server, cast.teamAdmin, cast.team.handle, {
    name: 'Vault',
    handle: 'vault',
    visibility: 'owner',
  });
  await call(cast.teamAdmin, 'PATCH', '/api/services/checkout', {
    description: 'Takes the money',
    links: [{ name: 'Runbook', url: 'https://wiki.example.com/checkout' }],
  });
  await call(cast.teamAdmin, 'PATCH', '/api/services/vault', { description: 'Keeps secrets' });
});
afterAll(() => server.close());

describe('scorecards', () => {
  it('are defined by workspace admins and owners only, and read by every member', async () => {
    expect((await call(cast.teamAdmin, 'POST', '/api/scorecards', READINESS)).statusCode).toBe(403);
    expect((await call(cast.guest, 'POST', '/api/scorecards', READINESS)).statusCode).toBe(403);
    const created = await call(cast.admin, 'POST', '/api/scorecards', READINESS);
    expect(created.statusCode).toBe(201);
    expect(json<Scorecard>(created)).toMatchObject({
      handle: 'readiness',
      levels: READINESS.levels,
      rules: [{ key: 'described', remediation: 'Say in a sentence what the service does.' }, {}, {}],
      // Checkout has it all, Vault a description only, Payments API nothing.
      distribution: [
        { level: null, services: 1 },
        { level: 'bronze', services: 1 },
        { level: 'silver', services: 1 },
      ],
    });
    expect((await call(cast.owner, 'POST', '/api/scorecards', READINESS)).statusCode).toBe(409);

    const seenByGuest = json<Scorecard[]>(await call(cast.guest, 'GET', '/api/scorecards'));
    expect(seenByGuest.map((card) => card.handle)).toEqual(['readiness']);
    // The owner-only Vault is not counted for a guest.
    expect(seenByGuest[0]!.distribution).toEqual([
      { level: null, services: 1 },
      { level: 'bronze', services: 0 },
      { level: 'silver', services: 1 },
    ]);

    // Another workspace sees none of it.
    // One scorecard answers its spread per owner team too.
    expect(json<Scorecard>(await call(cast.teamMember, 'GET', '/api/scorecards/readiness')).teams).toEqual([
      {
        team: { handle: 'payments', name: 'Payments' },
        distribution: [
          { level: null, services: 1 },
          { level: 'bronze', services: 1 },
          { level: 'silver', services: 1 },
        ],
      },
    ]);
    expect(json<Scorecard>(await call(cast.guest, 'GET', '/api/scorecards/readiness')).teams![0]!.distribution).toEqual(
      [
        { level: null, services: 1 },
        { level: 'bronze', services: 0 },
        { level: 'silver', services: 1 },
      ],
    );
    expect(json(await call(cast.outsider, 'GET', '/api/scorecards'))).toEqual([]);
    expect((await call(cast.outsider, 'GET', '/api/scorecards/readiness')).statusCode).toBe(404);
    expect((await call(cast.outsider, 'GET', '/api/scorecards/readiness/results')).statusCode).toBe(404);
    expect((await call(cast.outsider, 'PATCH', '/api/scorecards/readiness', { name: 'Mine' })).statusCode).toBe(404);
  });

  it('refuses an unsound definition and changes nothing', async () => {
    const bad = [
      { ...READINESS, handle: 'Bad Handle' },
      { ...READINESS, handle: 'other', levels: [] },
      { ...READINESS, handle: 'other', rules: [{ ...READINESS.rules[0], evaluator: 'has_mascot' }] },
      { ...READINESS, handle: 'other', rules: [{ ...READINESS.rules[0], level: 'platinum' }] },
      { ...READINESS, handle: 'other', rules: [READINESS.rules[0], READINESS.rules[0]] },
      { ...READINESS, handle: 'other', rules: [{ ...READINESS.rules[1], params: { kind: 'wiki' } }] },
      { ...READINESS, handle: 'other', rules: [{ ...READINESS.rules[1], params: {} }] },
      { ...READINESS, handle: 'other', rules: [{ ...READINESS.rules[0], weight: 0 }] },
      { ...READINESS, handle: 'other', applies_to: { teams: ['nobody'] } },
      { ...READINESS, handle: 'other', applies_to: { stages: ['retired'] } },
      { ...READINESS, handle: 'other', extra: true },
    ];
    for (const body of bad) {
      const response = await call(cast.admin, 'POST', '/api/scorecards', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const patch = await call(cast.admin, 'PATCH', '/api/scorecards/readiness', {
      levels: [{ key: 'gold', name: 'Gold' }],
    });
    expect(patch.statusCode).toBe(400);
    expect(json<{ message: string }>(patch).message).toBe('Rule "described" is on level "bronze", which is not one');
    const cards = json<Scorecard[]>(await call(cast.admin, 'GET', '/api/scorecards'));
    expect(cards.map((card) => card.handle)).toEqual(['readiness']);
    expect(cards[0]!.levels).toEqual(READINESS.levels);
  });

  it('lists each visible service with its level, score and the value each rule saw, paged and filtered', async () => {
    const all = await results(cast.teamMember);
    expect(all.total).toBe(3);
    expect(all.items.map((item) => item.service.handle)).toEqual(['checkout', 'payments-api', 'vault']);
    expect(byHandle(all.items, 'checkout')).toMatchObject({
      team: { handle: 'payments' },
      level: 'silver',
      score: 100,
      rules: [
        { key: 'described', state: 'pass', value: 'Description set' },
        { key: 'runbook', state: 'pass', value: 'Runbook' },
        { key: 'no-incident', state: 'pass', value: 'No open incident' },
      ],
    });
    expect(byHandle(all.items, 'payments-api')).toMatchObject({ level: null, score: 50 });
    expect(byHandle(all.items, 'payments-api')!.rules[1]).toMatchObject({ state: 'fail', value: 'No runbook link' });

    const guest = await results(cast.guest);
    expect(guest.total).toBe(2);
    expect(byHandle(guest.items, 'vault')).toBeUndefined();

    const page = await results(cast.teamMember, '?limit=1&cursor=1');
    expect(page).toMatchObject({ total: 3, items: [{ service: { handle: 'payments-api' } }] });
    expect((await results(cast.teamMember, '?level=silver')).items.map((i) => i.service.handle)).toEqual(['checkout']);
    expect((await results(cast.teamMember, '?level=none')).items.map((i) => i.service.handle)).toEqual([
      'payments-api',
    ]);
    expect((await results(cast.teamMember, '?team=payments')).total).toBe(3);
    expect((await call(cast.teamMember, 'GET', '/api/scorecards/readiness/results?level=platinum')).statusCode).toBe(
      400,
    );
    expect((await call(cast.teamMember, 'GET', '/api/scorecards/readiness/results?team=nobody')).statusCode).toBe(400);
  });

  it('follows a change of what a rule reads: an incident and an edit move the level, each change kept as history', async () => {
    const history = () =>
      server.ctx.database.db
        .selectFrom('scorecard_result_changes')
        .innerJoin('services', 'services.id', 'scorecard_result_changes.service_id')
        .select(['scorecard_result_changes.level_rank'])
        .where('services.handle', '=', 'checkout')
        .orderBy('scorecard_result_changes.at')
        .execute();
    expect(await history()).toEqual([{ level_rank: 1 }]);

    const incident = await call(cast.teamMember, 'POST', '/api/services/checkout/notices', {
      type: 'incident',
      title: 'Card payments fail',
      message: 'Looking into it',
      health: 'error',
    });
    expect(incident.statusCode).toBe(201);
    const own = json<ServiceScorecard[]>(await call(cast.teamMember, 'GET', '/api/services/checkout/scorecards'));
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({
      scorecard: { handle: 'readiness', name: 'Production readiness' },
      level: 'bronze',
      score: 50,
    });
    expect(own[0]!.rules[2]).toMatchObject({
      key: 'no-incident',
      name: 'No open incident',
      level: 'silver',
      state: 'fail',
      value: '1 open incident',
      exemption: null,
    });
    expect(byHandle((await results(cast.teamMember)).items, 'checkout')).toMatchObject({ level: 'bronze' });
    // The owning team is told of the drop, once, however often the results are read again.
    await call(cast.teamMember, 'GET', '/api/services/checkout/scorecards');
    await sweepScorecards(server.ctx);
    const notifications = json<Array<{ message: string }>>(
      await call(cast.teamMember, 'GET', `/api/users/${cast.teamMember.handle}/notifications`),
    );
    expect(notifications.filter((n) => n.message.includes('Production readiness:')).map((n) => n.message)).toEqual([
      'Checkout: Production readiness: dropped from Silver to Bronze',
    ]);

    // Payments API gets a description: it reaches bronze at the next sweep.
    await call(cast.teamAdmin, 'PATCH', '/api/services/payments-api', { description: 'The public API' });
    expect(await sweepScorecards(server.ctx)).toBeGreaterThanOrEqual(1);
    expect(byHandle((await results(cast.teamMember)).items, 'payments-api')).toMatchObject({ level: 'bronze' });
    // A sweep with nothing new changes nothing.
    expect(await sweepScorecards(server.ctx)).toBe(0);
    expect(await history()).toEqual([{ level_rank: 1 }, { level_rank: 0 }]);
  });

  it('keeps the history: daily level counts, and the services that rose and fell most', async () => {
    const db = server.ctx.database.db;
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    // Each service's first result moves to yesterday: today then holds what changed since.
    const firsts = await db
      .selectFrom('scorecard_result_changes')
      .select(['service_id'])
      .select((eb) => eb.fn.min('at').as('at'))
      .groupBy('service_id')
      .execute();
    for (const first of firsts) {
      await db
        .updateTable('scorecard_result_changes')
        .set({ at: Date.parse(`${yesterday}T12:00:00Z`) })
        .where('service_id', '=', first.service_id)
        .where('at', '=', first.at)
        .execute();
    }
    const response = await call(
      cast.teamMember,
      'GET',
      `/api/scorecards/readiness/history?from=${yesterday}&to=${today}`,
    );
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({
      from: yesterday,
      to: today,
      days: [
        {
          date: yesterday,
          levels: [
            { level: null, services: 1 },
            { level: 'bronze', services: 1 },
            { level: 'silver', services: 1 },
          ],
        },
        {
          date: today,
          levels: [
            { level: null, services: 0 },
            { level: 'bronze', services: 3 },
            { level: 'silver', services: 0 },
          ],
        },
      ],
      improved: [{ service: { handle: 'payments-api', name: 'Payments API' }, from: null, to: 'bronze' }],
      regressed: [{ service: { handle: 'checkout', name: 'Checkout' }, from: 'silver', to: 'bronze' }],
    });
    // The guest does not see Vault.
    const guest = json<{ days: Array<{ levels: Array<{ services: number }> }> }>(
      await call(cast.guest, 'GET', `/api/scorecards/readiness/history?from=${yesterday}&to=${today}`),
    );
    expect(guest.days[1]!.levels.map((l) => l.services)).toEqual([0, 2, 0]);
    expect(guest.days[0]!.levels.map((l) => l.services)).toEqual([1, 0, 1]);
    for (const query of ['from=2026-13-01', `from=${today}&to=${yesterday}`, 'from=2025-01-01&to=2025-12-31']) {
      expect((await call(cast.teamMember, 'GET', `/api/scorecards/readiness/history?${query}`)).statusCode).toBe(400);
    }
  });

  it('warns the owning team once when a certificate will fail its rule within a week, and says the day', async () => {
    const check = await call(cast.teamAdmin, 'POST', '/api/services/payments-api/health-checks', {
      name: 'Edge certificate',
      kind: 'tls',
      endpoint: 'payments.example.com:443',
      runner: null,
      frequency: 3600,
      timeout: 5,
      allowed_failures: 0,
      importance: 'warning',
      // Paused: the test writes the result a runner would have.
      paused: true,
    });
    expect(check.statusCode, check.body).toBe(201);
    const checkId = json<{ id: string }>(check).id;
    // Running again, as far as the scorecard can tell (no runner is started by the test server).
    await server.ctx.database.db.updateTable('health_checks').set({ paused: 0 }).where('id', '=', checkId).execute();
    const now = Date.now();
    const notAfter = new Date(now + 20 * 86_400_000 + 3_600_000);
    await server.ctx.database.db
      .insertInto('health_check_results')
      .values({
        check_id: checkId,
        workspace_id: await workspaceIdOf(server, 'scoreco'),
        start: now - 60_000,
        time: 40,
        success: 1,
        status: null,
        error: null,
        error_class: null,
        assertions: null,
        cert: JSON.stringify({ days_left: 20, not_after: notAfter.toISOString(), subject: 'CN=x', issuer: 'CN=ca' }),
        severity: null,
      })
      .execute();
    const created = await call(cast.admin, 'POST', '/api/scorecards', {
      handle: 'certs',
      name: 'Certificates',
      levels: [{ key: 'safe', name: 'Safe' }],
      rules: [
        {
          key: 'cert',
          name: 'Certificate has two weeks',
          level: 'safe',
          evaluator: 'cert_days_left',
          params: { min: 14 },
        },
      ],
    });
    expect(created.statusCode).toBe(201);
    const own = json<ServiceScorecard[]>(await call(cast.teamMember, 'GET', '/api/services/payments-api/scorecards'));
    const rule = own.find((card) => card.scorecard.handle === 'certs')!.rules[0]!;
    expect(rule).toMatchObject({ state: 'pass', value: 'Certificate expires in 20 days' });
    const failsAt = new Date(notAfter.getTime() - 14 * 86_400_000);
    expect(rule.fails_at).toBe(failsAt.toISOString());
    const day = failsAt.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const warnings = async () =>
      json<Array<{ message: string }>>(
        await call(cast.teamMember, 'GET', `/api/users/${cast.teamMember.handle}/notifications`),
      )
        .map((n) => n.message)
        .filter((message) => message.includes('Certificates:'));
    expect(await warnings()).toEqual([`Payments API: Certificates: Certificate has two weeks will fail on ${day}`]);
    await sweepScorecards(server.ctx);
    await call(cast.teamMember, 'GET', '/api/services/payments-api/scorecards');
    expect(await warnings()).toHaveLength(1);
    expect((await call(cast.admin, 'DELETE', '/api/scorecards/certs')).statusCode).toBe(204);
  });

  it('re-reads a service soon after an event about it, with no sweep and no read of its own tab', async () => {
    const refresh = startScorecardRefresh(server.ctx);
    try {
      const edited = await call(cast.teamAdmin, 'PATCH', '/api/services/payments-api', {
        links: [{ name: 'Runbook', url: 'https://wiki.example.com/payments' }],
      });
      expect(edited.statusCode).toBe(200);
      await refresh.settled();
      expect(byHandle((await results(cast.teamMember)).items, 'payments-api')).toMatchObject({
        level: 'silver',
        rules: [{ state: 'pass' }, { state: 'pass', value: 'Runbook' }, { state: 'pass' }],
      });
    } finally {
      refresh.stop();
    }
  });

  it('re-reads the service only once the transaction that changed it has committed, however long it stays open', async () => {
    const refresh = startScorecardRefresh(server.ctx);
    const { db } = server.ctx.database;
    const workspaceId = await workspaceIdOf(server, 'scoreco');
    const service = await serviceNamed(workspaceId, 'Payments API');
    try {
      const passes = refresh.passes();
      await db.transaction().execute(async (trx) => {
        await updateService(trx, workspaceId, service.id, { description: '', updated_at: new Date().toISOString() });
        await recordEvent(trx, {
          workspace_id: workspaceId,
          profile_type: 'service',
          profile_id: service.id,
          type: 'service.updated',
          actor_id: null,
          agent_name: 'test',
          data: { fields: ['description'] },
          created_at: new Date().toISOString(),
        });
        // The refresh has looked while the change is not committed (on PostgreSQL it saw no touch yet; on SQLite
        // its read waits for the one connection).
        await vi.waitFor(() => expect(refresh.passes()).toBeGreaterThan(passes));
      });
      await vi.waitFor(
        async () =>
          expect(byHandle((await results(cast.teamMember)).items, 'payments-api')!.rules[0]).toMatchObject({
            key: 'described',
            state: 'fail',
          }),
        { timeout: 5000 },
      );
      await refresh.settled();
    } finally {
      refresh.stop();
    }
    await call(cast.teamAdmin, 'PATCH', '/api/services/payments-api', { description: 'The public API' });
    await sweepScorecards(server.ctx);
  });

  it('keeps and tells a change once when two evaluations of it run at once', async () => {
    const { db } = server.ctx.database;
    const workspaceId = await workspaceIdOf(server, 'scoreco');
    const vault = await serviceNamed(workspaceId, 'Vault');
    const count = async (table: 'events' | 'scorecard_result_changes') =>
      table === 'events'
        ? (
            await db
              .selectFrom('events')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .where('type', '=', 'scorecard.level_dropped')
              .where('profile_id', '=', vault.id)
              .executeTakeFirstOrThrow()
          ).n
        : (
            await db
              .selectFrom('scorecard_result_changes')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .where('service_id', '=', vault.id)
              .executeTakeFirstOrThrow()
          ).n;
    const [drops, changes] = [Number(await count('events')), Number(await count('scorecard_result_changes'))];
    // Vault loses its description (bronze's rule), written with no event, so nothing else evaluates it.
    await updateService(db, workspaceId, vault.id, { description: '', updated_at: new Date().toISOString() });
    const written = await Promise.all([
      evaluateScorecards(server.ctx, workspaceId, { serviceIds: [vault.id] }),
      evaluateScorecards(server.ctx, workspaceId, { serviceIds: [vault.id] }),
    ]);
    expect(written.sort()).toEqual([0, 1]);
    expect(Number(await count('events'))).toBe(drops + 1);
    expect(Number(await count('scorecard_result_changes'))).toBe(changes + 1);
    expect(byHandle((await results(cast.admin)).items, 'vault')).toMatchObject({ level: null });
    await updateService(db, workspaceId, vault.id, {
      description: 'Keeps secrets',
      updated_at: new Date().toISOString(),
    });
    await sweepScorecards(server.ctx);
  });

  it('lets admins exempt a rule for a service until a date, shown and counted apart', async () => {
    const nextMonth = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const body = {
      service: 'checkout',
      rule: 'no-incident',
      reason: 'A vendor outage we track elsewhere',
      expires_at: nextMonth,
    };
    expect((await call(cast.teamAdmin, 'POST', '/api/scorecards/readiness/exemptions', body)).statusCode).toBe(403);
    for (const wrong of [
      { ...body, rule: 'nope' },
      { ...body, expires_at: new Date(Date.now() - 1000).toISOString() },
      { ...body, reason: '' },
    ]) {
      expect((await call(cast.admin, 'POST', '/api/scorecards/readiness/exemptions', wrong)).statusCode).toBe(400);
    }
    expect(
      (await call(cast.admin, 'POST', '/api/scorecards/readiness/exemptions', { ...body, service: 'nope' })).statusCode,
    ).toBe(404);

    const created = await call(cast.admin, 'POST', '/api/scorecards/readiness/exemptions', body);
    expect(created.statusCode).toBe(201);
    const exemption = json<{ id: string }>(created);
    const checkout = byHandle((await results(cast.teamMember)).items, 'checkout')!;
    // Silver again, and the exempt rule leaves the score: 3 of 3 weights counted pass.
    expect(checkout).toMatchObject({ level: 'silver', score: 100 });
    expect(checkout.rules[2]).toMatchObject({ key: 'no-incident', state: 'exempt', value: '1 open incident' });
    const own = json<ServiceScorecard[]>(await call(cast.guest, 'GET', '/api/services/checkout/scorecards'));
    expect(own[0]!.rules[2]!.exemption).toMatchObject({
      reason: body.reason,
      rule: 'no-incident',
      service: 'checkout',
    });

    expect(
      (await call(cast.outsider, 'DELETE', `/api/scorecards/readiness/exemptions/${exemption.id}`)).statusCode,
    ).toBe(404);
    expect((await call(cast.admin, 'DELETE', `/api/scorecards/readiness/exemptions/${exemption.id}`)).statusCode).toBe(
      204,
    );
    expect(byHandle((await results(cast.teamMember)).items, 'checkout')).toMatchObject({ level: 'bronze' });
  });

  it('keeps its reads while nothing changes, and shows a result another process writes in the next read', async () => {
    const kept = keptAnswersOf(server.ctx, ['catalogue', 'scorecard']).answers;
    const first = await results(cast.teamMember);
    await call(cast.teamMember, 'GET', '/api/scorecards/readiness');
    const held = kept.size;
    expect(held).toBeGreaterThan(0);
    expect(await results(cast.teamMember)).toEqual(first);
    expect(kept.size).toBe(held);

    // Another process's evaluation: a result row written straight into the table.
    const checkout = byHandle(first.items, 'checkout')!;
    await server.ctx.database.db
      .updateTable('scorecard_results')
      .set({ level_rank: -1, score: 7 })
      .where('service_name', '=', 'Checkout')
      .execute();
    const after = byHandle((await results(cast.teamMember)).items, 'checkout')!;
    expect([after.level, after.score]).toEqual([null, 7]);
    expect(checkout.score).not.toBe(7);
    // The level spread follows too (its counts are kept by the results' triggers).
    const card = json<Scorecard>(await call(cast.teamMember, 'GET', '/api/scorecards/readiness'));
    expect(card.distribution.find((part) => part.level === null)!.services).toBeGreaterThan(0);
    // A catalogue write by another process (a team's new name) shows in the matrix at once as well.
    const teams = server.ctx.database.db.updateTable('teams').where('handle', '=', cast.team.handle);
    await teams.set({ name: 'Renamed team' }).execute();
    expect(byHandle((await results(cast.teamMember)).items, 'checkout')!.team.name).toBe('Renamed team');
    await teams.set({ name: checkout.team.name }).execute();
    // Put back as an evaluation would have it.
    await sweepScorecards(server.ctx);
  });

  it('applies only to the services its criteria name, and is deleted with its results', async () => {
    const patched = await call(cast.owner, 'PATCH', '/api/scorecards/readiness', {
      applies_to: { stages: ['live'] },
    });
    expect(patched.statusCode).toBe(200);
    expect((await results(cast.teamMember)).total).toBe(0);
    await call(cast.teamAdmin, 'POST', '/api/services/checkout/actions/change-stage', { stage: 'live' });
    const own = json<ServiceScorecard[]>(await call(cast.teamMember, 'GET', '/api/services/checkout/scorecards'));
    expect(own.map((card) => card.scorecard.handle)).toEqual(['readiness']);
    expect((await results(cast.teamMember)).items.map((i) => i.service.handle)).toEqual(['checkout']);
    expect(json(await call(cast.teamMember, 'GET', '/api/services/payments-api/scorecards'))).toEqual([]);

    expect((await call(cast.teamAdmin, 'DELETE', '/api/scorecards/readiness')).statusCode).toBe(403);
    expect((await call(cast.admin, 'DELETE', '/api/scorecards/readiness')).statusCode).toBe(204);
    expect((await call(cast.admin, 'GET', '/api/scorecards/readiness')).statusCode).toBe(404);
    const left = await server.ctx.database.db
      .selectFrom('scorecard_results')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });
});
