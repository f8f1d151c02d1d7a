import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScorecardResult } from '../../src/contract/scorecards.js';
import { startScorecardRefresh } from '../../src/server/jobs/scorecard-sweep.js';
import { createService, seedWorkspace, workspaceIdOf, type SeededWorkspace } from '../support/fixtures.js';
import { writeElsewhere } from '../support/other-process.js';
import { callAs, json, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/until.js';

/**
 * Issue 48 item 7: every fact a scorecard rule reads refreshes the service's results within a second of its change,
 * written by this process (no event needed) or by another one, on the run's engine. Only the matrix is read: a read
 * of the service's own scorecards would evaluate it.
 */
let server: TestServer;
let cast: SeededWorkspace;
let workspaceId: string;
let refresh: ReturnType<typeof startScorecardRefresh>;

const DAY_MS = 86_400_000;
/** Within a second of the change, with the time a read takes. */
const FRESH_MS = 1500;

const rule = async (handle: string, key: string) => {
  const response = await callAs(server, cast.teamMember, 'GET', '/api/scorecards/fresh/results');
  const row = json<ScorecardResult[]>(response).find((item) => item.service.handle === handle);
  return row?.rules.find((r) => r.key === key);
};
/** Waits for the rule to reach `state` (and `value`, when given), failing after FRESH_MS. */
const becomes = (handle: string, key: string, state: string, value?: RegExp) =>
  until(async () => {
    const seen = await rule(handle, key);
    return seen?.state === state && (!value || value.test(seen.value)) ? seen : undefined;
  }, FRESH_MS);

const checkBody = (name: string, extra: object = {}) => ({
  name,
  endpoint: 'https://ledger.example.com/health',
  runner: null,
  frequency: 60,
  timeout: 5,
  allowed_failures: 0,
  importance: 'error',
  ...extra,
});

const resultRow = (checkId: string, start: number, success: boolean, notAfter?: number) => ({
  check_id: checkId,
  workspace_id: workspaceId,
  start,
  time: 12,
  success: success ? 1 : 0,
  cert:
    notAfter === undefined
      ? null
      : JSON.stringify({
          days_left: Math.floor((notAfter - Date.now()) / DAY_MS),
          not_after: new Date(notAfter).toISOString(),
          subject: 'CN=ledger.example.com',
          issuer: 'CN=Test CA',
        }),
});

/** The same row written by another OS process. */
const insertElsewhere = (row: ReturnType<typeof resultRow>) =>
  writeElsewhere(server.database, [
    {
      sql: 'insert into health_check_results (check_id, workspace_id, start, time, success, cert) values (?, ?, ?, ?, ?, ?)',
      values: [row.check_id, row.workspace_id, row.start, row.time, row.success, row.cert],
    },
  ]);

beforeAll(async () => {
  server = await startTestServer();
  cast = await seedWorkspace(server, { domain: 'freshco' });
  workspaceId = await workspaceIdOf(server, 'freshco');
  for (const name of ['Ledger', 'Till', 'Vault', 'Orders', 'Legacy']) {
    const handle = name.toLowerCase();
    await createService(server, cast.teamAdmin, 'payments', { name, handle });
    await callAs(server, cast.teamAdmin, 'POST', `/api/services/${handle}/actions/change-stage`, { stage: 'live' });
  }
  // Good for the last hour: an SLO has time measured as soon as it is set.
  const { db } = server.ctx.database;
  const hourAgo = Date.now() - 3_600_000;
  await db
    .updateTable('services')
    .set({ created_at: new Date(hourAgo).toISOString() })
    .execute();
  await db.updateTable('health_transitions').set({ at: hourAgo }).execute();
  const created = await callAs(server, cast.admin, 'POST', '/api/scorecards', {
    handle: 'fresh',
    name: 'Fresh',
    levels: [{ key: 'ok', name: 'OK' }],
    rules: [
      { key: 'slo', name: 'SLO met', level: 'ok', weight: 1, evaluator: 'slo_met', params: {} },
      { key: 'check', name: 'Live has a check', level: 'ok', weight: 1, evaluator: 'live_has_check', params: {} },
      {
        key: 'passing',
        name: 'No failing check',
        level: 'ok',
        weight: 1,
        evaluator: 'no_failing_checks',
        params: { minutes: 1 },
      },
      { key: 'cert', name: 'Certificate', level: 'ok', weight: 1, evaluator: 'cert_days_left', params: { min: 14 } },
      ...(
        [
          ['incident', 'no_open_incident', { min_severity: 'warning' }],
          ['runbook', 'has_link', { kind: 'runbook' }],
          ['spec', 'has_published_spec', {}],
          ['team', 'team_size', { min: 3 }],
          ['channel', 'has_channel', {}],
          ['eol', 'no_eol_dependency', {}],
          ['described', 'field_set', { field: 'description' }],
          ['drift', 'no_api_drift', {}],
        ] as const
      ).map(([key, evaluator, params]) => ({ key, name: key, level: 'ok', weight: 1, evaluator, params })),
    ],
  });
  expect(created.statusCode, created.body).toBe(201);
  refresh = startScorecardRefresh(server.ctx);
});
afterAll(async () => {
  refresh?.stop();
  await server?.close();
});

describe('scorecard results follow their facts within a second', () => {
  it('an SLO set: unknown, then met', async () => {
    expect(await rule('ledger', 'slo')).toMatchObject({ state: 'unknown', value: 'No SLO set' });
    const set = await callAs(server, cast.teamAdmin, 'PUT', '/api/services/ledger/slo', { target: 99, window_days: 7 });
    expect(set.statusCode, set.body).toBe(200);
    await becomes('ledger', 'slo', 'pass', /against 99 %/);
  });

  it('a check added: live_has_check passes, and its first result makes no_failing_checks known', async () => {
    expect(await rule('ledger', 'check')).toMatchObject({ state: 'fail', value: '0 running checks' });
    const created = await callAs(
      server,
      cast.teamAdmin,
      'POST',
      '/api/services/ledger/health-checks',
      checkBody('API'),
    );
    expect(created.statusCode, created.body).toBe(201);
    await becomes('ledger', 'check', 'pass', /1 running check/);
    expect(await rule('ledger', 'passing')).toMatchObject({ state: 'unknown' });
    // A result as the shared runner writes it: no event.
    const { id } = json<{ id: string }>(created);
    await server.ctx.database.db
      .insertInto('health_check_results')
      .values(resultRow(id, Date.now(), true))
      .execute();
    await becomes('ledger', 'passing', 'pass');
  });

  it('a check result failing, then recovering, in this process and in another', async () => {
    const created = await callAs(server, cast.teamAdmin, 'POST', '/api/services/till/health-checks', checkBody('API'));
    const { id } = json<{ id: string }>(created);
    const { db } = server.ctx.database;
    await db
      .insertInto('health_check_results')
      .values(resultRow(id, Date.now(), true))
      .execute();
    await becomes('till', 'passing', 'pass');

    // A failed run: the rule reads the failure at once.
    await db
      .insertInto('health_check_results')
      .values(resultRow(id, Date.now(), false))
      .execute();
    await becomes('till', 'passing', 'fail', /failed 1 minute ago/);

    // Another process marks the check failing, then recovered (its failure now over a minute old).
    const past = Date.now() - 2 * 60_000;
    await db.updateTable('health_check_results').set({ start: past }).where('check_id', '=', id).execute();
    await writeElsewhere(server.database, [{ sql: 'update health_checks set failing = 1 where id = ?', values: [id] }]);
    await becomes('till', 'passing', 'fail', /API is failing/);
    await writeElsewhere(server.database, [{ sql: 'update health_checks set failing = 0 where id = ?', values: [id] }]);
    await becomes('till', 'passing', 'pass');

    // A failed run written by another process.
    await insertElsewhere(resultRow(id, Date.now(), false));
    await becomes('till', 'passing', 'fail', /failed 1 minute ago/);
  });

  it('the days a certificate has left, as another process writes the results', async () => {
    const created = await callAs(
      server,
      cast.teamAdmin,
      'POST',
      '/api/services/vault/health-checks',
      checkBody('Edge', { kind: 'tls', endpoint: 'vault.example.com:443' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const { id } = json<{ id: string }>(created);
    expect(await rule('vault', 'cert')).toMatchObject({ state: 'unknown' });
    await insertElsewhere(resultRow(id, Date.now() - 1000, true, Date.now() + 40 * DAY_MS + 3_600_000));
    await becomes('vault', 'cert', 'pass', /expires in 40 days/);
    // A certificate with five days left replaces it.
    await insertElsewhere(resultRow(id, Date.now(), true, Date.now() + 5 * DAY_MS + 3_600_000));
    await becomes('vault', 'cert', 'fail', /expires in 5 days/);
  });

  it('an SLO set by another process', async () => {
    expect(await rule('till', 'slo')).toMatchObject({ state: 'unknown', value: 'No SLO set' });
    const till = await server.ctx.database.db
      .selectFrom('services')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('handle', '=', 'till')
      .executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await writeElsewhere(server.database, [
      {
        sql: `insert into service_slos (service_id, workspace_id, target_thousandths, window_days, created_at, updated_at)
          values (?, ?, 99000, 7, ?, ?)`,
        values: [till.id, workspaceId, at, at],
      },
    ]);
    await becomes('till', 'slo', 'pass', /against 99 %/);
  });

  it('every other rule’s fact, written through the API or by another process', async () => {
    const { db } = server.ctx.database;
    const idOf = async (handle: string) =>
      (
        await db
          .selectFrom('services')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('handle', '=', handle)
          .executeTakeFirstOrThrow()
      ).id;
    const orders = await idOf('orders');
    const at = new Date().toISOString();
    const api = (method: 'POST' | 'PATCH', url: string, body: object) =>
      callAs(server, cast.teamAdmin, method, url, body).then((r) => expect(r.statusCode, r.body).toBeLessThan(300));

    await api('PATCH', '/api/services/orders', { links: [{ name: 'Runbook', url: 'https://wiki.example.com/o' }] });
    await becomes('orders', 'runbook', 'pass');
    await writeElsewhere(server.database, [
      { sql: `update services set description = 'Takes orders' where id = ?`, values: [orders] },
    ]);
    await becomes('orders', 'described', 'pass');

    await api('POST', '/api/services/orders/notices', { type: 'incident', title: 'Down', message: 'Looking' });
    await becomes('orders', 'incident', 'fail', /1 open incident/);

    expect(await rule('orders', 'team')).toMatchObject({ state: 'fail', value: '2 members' });
    await api('POST', '/api/teams/payments/members', { user: { id: cast.admin.id }, role: 'member' });
    await becomes('orders', 'team', 'pass', /3 members/);
    await writeElsewhere(server.database, [
      { sql: 'delete from team_members where user_id = ? and team_id = ?', values: [cast.admin.id, cast.team.id] },
    ]);
    await becomes('orders', 'team', 'fail', /2 members/);

    await writeElsewhere(server.database, [
      {
        sql: `insert into service_channels (id, workspace_id, service_id, provider, channel_id, created_at, updated_at)
          values (?, ?, ?, 'slack', 'C0123', ?, ?)`,
        values: [`chan-${orders}`, workspaceId, orders, at, at],
      },
    ]);
    await becomes('orders', 'channel', 'pass');

    // A dependency reaching End of Life, in another process: its dependents follow.
    await api('POST', '/api/services/orders/dependencies', { service: { id: 'legacy' } });
    await becomes('orders', 'eol', 'pass');
    await writeElsewhere(server.database, [
      { sql: `update services set stage = 'eol' where id = ?`, values: [await idOf('legacy')] },
    ]);
    await becomes('orders', 'eol', 'fail', /Depends on Legacy/);

    const spec = 'openapi: 3.0.3\ninfo:\n  title: Orders\n  version: 1.0.0\npaths: {}\n';
    const draft = await callAs(server, cast.teamAdmin, 'POST', '/api/services/orders/draft-pages', {
      section: 'open-api-specs',
      title: 'Orders API',
      content: spec,
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const page = json<{ id: string; handle: string }>(draft);
    await api('POST', `/api/services/orders/draft-pages/open-api-specs/${page.handle}/actions/publish`, {});
    await becomes('orders', 'spec', 'pass');

    // A check made from the spec, then drift found: both as another process writes them.
    const check = json<{ id: string }>(
      await callAs(server, cast.teamAdmin, 'POST', '/api/services/orders/health-checks', checkBody('Spec')),
    );
    expect(await rule('orders', 'drift')).toMatchObject({ state: 'unknown' });
    await writeElsewhere(server.database, [
      { sql: 'update health_checks set spec_page_id = ? where id = ?', values: [page.id, check.id] },
    ]);
    await becomes('orders', 'drift', 'pass');
    await writeElsewhere(server.database, [
      {
        sql: `insert into api_drift (id, workspace_id, service_id, page_id, operation_id, method, path, check_id, since,
          last_seen, example) values (?, ?, ?, ?, 'listOrders', 'GET', '/orders', ?, ?, ?, '{}')`,
        values: [`drift-${orders}`, workspaceId, orders, page.id, check.id, at, at],
      },
    ]);
    await becomes('orders', 'drift', 'fail', /Drift in/);
  });
});
