/**
 * `npm run bench:catalog-import` (issue 29): 10,000 Components, 500 Groups and 30,000 dependencies in 51 descriptor
 * files, planned and applied as an authoritative source through the API, on each engine. Targets: a plan under
 * 5 s, an apply under 30 s; the process's memory is reported; a sync of the unchanged source writes nothing to the
 * catalogue (its version stays).
 */
import { pino } from 'pino';
import { buildApp } from '../../src/server/app.js';
import { closeContext, createContext } from '../../src/server/bootstrap.js';
import { loadConfig } from '../../src/server/config.js';
import { workspaceVersion } from '../../src/server/db/repositories/versions.js';
import { freshDatabase } from '../support/database.js';
import { DOMAIN, enginesToRun, positiveNumber, registerAndLogIn } from './harness.js';

const COMPONENTS = positiveNumber(process.env.BENCH_COMPONENTS, 10_000, 'BENCH_COMPONENTS');
const GROUPS = positiveNumber(process.env.BENCH_GROUPS, 500, 'BENCH_GROUPS');
const DEPENDENCIES_EACH = 3;
const PER_FILE = 200;

function descriptorFiles() {
  const group = (i: number) =>
    `apiVersion: backstage.io/v1alpha1\nkind: Group\nmetadata:\n  name: team-${i}\n  title: Team ${i}\n` +
    `spec:\n  type: team\n  children: []\n`;
  const component = (i: number) => {
    // Three dependencies on services before it: 30,000 edges, no cycle needed to make the point.
    const deps = i < DEPENDENCIES_EACH ? [] : [1, 2, 3].map((k) => `component:svc-${(i * 7 + k * 13) % i}`);
    return (
      `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: svc-${i}\n  title: Service ${i}\n` +
      `  description: Service number ${i}\n  links:\n    - url: https://wiki.example.com/svc-${i}\n      title: Runbook\n` +
      `spec:\n  type: service\n  lifecycle: production\n  owner: team-${i % GROUPS}\n` +
      (deps.length ? `  dependsOn: [${[...new Set(deps)].join(', ')}]\n` : '')
    );
  };
  const files = [{ path: 'teams.yaml', content: Array.from({ length: GROUPS }, (_, i) => group(i)).join('---\n') }];
  for (let start = 0; start < COMPONENTS; start += PER_FILE) {
    const docs = Array.from({ length: Math.min(PER_FILE, COMPONENTS - start) }, (_, k) => component(start + k));
    files.push({ path: `services/part-${start / PER_FILE}.yaml`, content: docs.join('---\n') });
  }
  return files;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function benchEngine(engine: 'sqlite' | 'postgres') {
  const database = await freshDatabase(engine);
  const config = loadConfig({ ...database.env, PORT: '8080', LOG_LEVEL: 'silent' });
  const ctx = await createContext(config, pino({ level: 'silent' }));
  const app = await buildApp(ctx);
  try {
    const host = `${DOMAIN}.localhost:8080`;
    const { token, workspaceId } = await registerAndLogIn(app, ctx, host);
    const headers = { host, authorization: `Bearer ${token}` };
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.json<{ id: string; counts: Record<string, number> }>();
    };
    const source = await call('POST', '/api/catalog/sources', { name: 'monorepo' });
    const files = descriptorFiles();
    const bytes = files.reduce((sum, file) => sum + file.content.length, 0);
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);

    let started = performance.now();
    const plan = await call('POST', '/api/catalog/plans', { source: 'monorepo', files });
    const planMs = performance.now() - started;
    started = performance.now();
    const applied = await call('POST', `/api/catalog/plans/${plan.id}/actions/apply`);
    const applyMs = performance.now() - started;

    const before = await workspaceVersion(ctx.database.db, 'catalogue', workspaceId);
    started = performance.now();
    await call('POST', `/api/catalog/sources/${source.id}/actions/sync`);
    const syncMs = performance.now() - started;
    const after = await workspaceVersion(ctx.database.db, 'catalogue', workspaceId);
    clearInterval(sampler);

    const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    console.log(`\n${engine}: ${files.length} files, ${mb(bytes)} of YAML`);
    console.log(
      `  plan:  ${planMs.toFixed(0)} ms (target < 5,000 ms: ${pass(planMs < 5000)}) ${JSON.stringify(plan.counts)}`,
    );
    console.log(
      `  apply: ${applyMs.toFixed(0)} ms (target < 30,000 ms: ${pass(applyMs < 30_000)}) ${JSON.stringify(applied.counts)}`,
    );
    console.log(
      `  sync of the unchanged source: ${syncMs.toFixed(0)} ms, catalogue version ${before} -> ${after} ` +
        `(no writes: ${pass(before === after)})`,
    );
    console.log(`  memory: peak RSS ${mb(peak)}, heap now ${mb(process.memoryUsage().heapUsed)}`);
    if (planMs >= 5000 || applyMs >= 30_000 || before !== after) process.exitCode = 1;
  } finally {
    await app.close();
    await closeContext(ctx);
    await database.drop();
  }
}

for (const engine of enginesToRun()) await benchEngine(engine);
