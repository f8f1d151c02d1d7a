import { describe, expect, it } from 'vitest';
import {
  formatPlan,
  planCatalog,
  type CurrentCatalogue,
  type CurrentService,
  type CurrentTeam,
  type PlanSource,
} from '../../../src/domain/catalog-plan.js';
import { exportDescriptors } from '../../../src/domain/descriptor-export.js';
import { readDescriptors } from '../../../src/domain/descriptors.js';

/** Issue 29: what a plan answers per entity, against the catalogue as it is. */

const REPO: PlanSource = { id: 'src-1', name: 'repo', mode: 'authoritative' };
const managed = { sourceId: 'src-1', sourceName: 'repo', mode: 'authoritative' as const };

const team = (handle: string, extra: Partial<CurrentTeam> = {}): CurrentTeam => ({
  id: `t-${handle}`,
  handle,
  name: handle,
  description: null,
  links: [],
  parent: null,
  members: [],
  admins: [],
  managedBy: null,
  path: null,
  ...extra,
});
const service = (handle: string, extra: Partial<CurrentService> = {}): CurrentService => ({
  id: `s-${handle}`,
  handle,
  name: handle,
  description: null,
  links: [],
  owner: 'payments',
  stage: 'live',
  visibility: 'workspace',
  dependsOn: [],
  healthCheckUrl: null,
  slo: null,
  slackChannel: null,
  specs: [],
  managedBy: null,
  path: null,
  ...extra,
});
const catalogue = (services: CurrentService[], teams: CurrentTeam[] = [team('payments')]): CurrentCatalogue => ({
  services,
  teams,
  users: new Set(['bob', 'ada']),
  remotes: new Set(['partner']),
});
const component = (name: string, extra = '') =>
  `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: ${name}\nspec:\n  lifecycle: production\n  owner: payments\n${extra}`;
const read = (...contents: string[]) =>
  readDescriptors(contents.map((content, index) => ({ path: `f${index}.yaml`, content })));

describe('planCatalog', () => {
  it('answers no changes for an export of the catalogue planned again', () => {
    const current = catalogue(
      [
        service('ledger', {
          name: 'Ledger',
          description: 'Books',
          links: [{ name: 'Runbook', url: 'https://wiki.example.com/ledger' }],
          dependsOn: ['checkout', 'partner/fraud'],
          stage: 'eol',
          visibility: 'public',
        }),
        service('checkout', { stage: 'development', visibility: 'owner' }),
      ],
      [team('payments', { name: 'Payments', members: ['bob'] }), team('cards', { parent: 'payments' })],
    );
    const plan = planCatalog(readDescriptors(exportDescriptors(current)), current, null);
    expect(plan.changes.filter((c) => c.action !== 'unchanged')).toEqual([]);
    expect(plan.changes).toHaveLength(4);
    expect(formatPlan(plan.changes)).toBe('No changes. 4 unchanged\n');
  });

  it('exports annotations and the spec pages services share as APIs, and plans them again to no change', () => {
    const spec = { handle: 'ledger-api', title: 'Ledger API', content: 'openapi: 3.0.3\ninfo:\n  title: Ledger\n' };
    const current = catalogue([
      service('ledger', {
        healthCheckUrl: 'https://ledger.example.com/health',
        slo: { target: 99.95, window_days: 7 },
        slackChannel: 'C0123ABCD',
        specs: [spec, { handle: 'v2', title: 'v2', content: 'openapi: 3.1.0\n' }],
      }),
      service('checkout', { specs: [spec, { handle: 'v2', title: 'v2', content: 'swagger: "2.0"\n' }] }),
    ]);
    const files = exportDescriptors(current);
    // Pages that differ between services under one handle have no one definition: left out.
    expect(files.map((f) => f.path)).toEqual(['catalog-info.yaml', 'teams/payments.yaml', 'apis/ledger-api.yaml']);
    const plan = planCatalog(readDescriptors(files), current, null);
    expect(plan.changes.filter((c) => c.action !== 'unchanged')).toEqual([]);
    expect(plan.changes.find((c) => c.kind === 'api')).toMatchObject({ handle: 'ledger-api', action: 'unchanged' });
    expect(plan.specs).toEqual([]);
  });

  it('publishes an API on the services that provide it, says which get it, and skips one nobody provides', () => {
    const api = (name: string, definition: string) =>
      `apiVersion: backstage.io/v1alpha1\nkind: API\nmetadata:\n  name: ${name}\nspec:\n  type: openapi\n  owner: payments\n  definition: "${definition}"\n`;
    const current = catalogue([
      service('cart', { specs: [{ handle: 'cart-api', title: 'cart-api', content: 'old' }], managedBy: managed }),
    ]);
    const plan = planCatalog(
      read(
        component('trolley', '  providesApis: [cart-api]\n').replace(
          'name: trolley',
          'name: trolley\n  annotations:\n    beacon.io/previous-names: cart',
        ),
        component('basket', '  providesApis: [api:default/cart-api]\n'),
        api('cart-api', 'new'),
        api('orphan-api', 'x'),
      ),
      current,
      REPO,
    );
    expect(plan.changes.find((c) => c.handle === 'cart-api')).toMatchObject({
      action: 'update',
      diff: [
        { field: 'services', from: ['trolley'], to: ['trolley', 'basket'] },
        {
          field: 'definition',
          from: expect.stringMatching(/^1 line #[0-9a-f]{8}$/),
          to: expect.stringMatching(/^1 line #/),
        },
      ],
    });
    expect(plan.specs.map((s) => [s.service, s.handle, s.content])).toEqual([
      ['trolley', 'cart-api', 'new'],
      ['basket', 'cart-api', 'new'],
    ]);
    expect(plan.changes.find((c) => c.handle === 'orphan-api')).toMatchObject({ action: 'skipped' });
  });

  it('diffs the fields a file changes, and takes a declared rename as an update of the same entity', () => {
    const current = catalogue([service('cart', { managedBy: managed, path: 'f0.yaml' })]);
    const plan = planCatalog(
      read(
        component('trolley', '  dependsOn: [component:missing]\n').replace(
          'name: trolley',
          'name: trolley\n  title: Trolley\n  annotations:\n    beacon.io/previous-names: cart',
        ),
      ),
      current,
      REPO,
    );
    expect(plan.changes).toEqual([
      expect.objectContaining({
        kind: 'service',
        handle: 'trolley',
        action: 'update',
        diff: [
          { field: 'handle', from: 'cart', to: 'trolley' },
          { field: 'name', from: 'cart', to: 'Trolley' },
        ],
        unresolved: ['component:missing'],
      }),
    ]);
    expect(plan.orphans).toEqual([]);
    expect(plan.writes[0]).toMatchObject({ id: 's-cart', handle: 'trolley' });
  });

  it('is a conflict when it would change what a hand-made entity or another source has; a plan without source may update a hand-made one', () => {
    const other = { sourceId: 'src-2', sourceName: 'other-repo', mode: 'authoritative' as const };
    const current = catalogue([service('ledger'), service('till', { managedBy: other })]);
    const files = read(component('ledger', '  # x\n').replace('production', 'deprecated'), component('till'));
    const changed = read(...['ledger', 'till'].map((name) => component(name).replace('production', 'deprecated')));
    const bySource = planCatalog(changed, current, REPO);
    expect(bySource.changes.map((c) => [c.handle, c.action, c.message])).toEqual([
      ['ledger', 'conflict', 'A service made in Beacon already has the handle ledger: rename or delete it first'],
      ['till', 'conflict', 'The service till is managed in other-repo: change it there'],
    ]);
    expect(bySource.writes).toEqual([]);
    const byHand = planCatalog(files, current, null);
    expect(byHand.changes.map((c) => [c.handle, c.action])).toEqual([
      ['ledger', 'update'],
      ['till', 'unchanged'],
    ]);
    expect(planCatalog(changed, current, null).changes.map((c) => c.action)).toEqual(['update', 'conflict']);
  });

  it('answers unchanged for what the files describe as it is, whoever manages it; the source is still not given it', () => {
    const other = { sourceId: 'src-2', sourceName: 'other-repo', mode: 'authoritative' as const };
    const current = catalogue([service('ledger'), service('till', { managedBy: other })]);
    const files = read(component('ledger'), component('till'));
    for (const source of [null, REPO]) {
      const plan = planCatalog(files, current, source);
      expect(plan.changes.map((c) => [c.handle, c.action, c.message])).toEqual([
        ['ledger', 'unchanged', source ? 'Made in Beacon' : undefined],
        ['till', 'unchanged', 'Managed in other-repo'],
      ]);
      // Nothing written, and another's entity never becomes this source's.
      expect(plan.writes.filter((w) => w.handle === 'till')).toEqual([]);
    }
    expect(planCatalog(files, current, REPO).standings.map((s) => [s.handle, s.state])).toEqual([
      ['ledger', 'conflict'],
      ['till', 'conflict'],
    ]);
  });

  it('plans an export as it is: every entity unchanged, a source’s managed ones and their APIs included', () => {
    const spec = { handle: 'till-api', title: 'Till API', content: 'openapi: 3.0.3\n' };
    const current = catalogue(
      [service('ledger'), service('till', { managedBy: managed, path: 'f0.yaml', specs: [spec] })],
      [team('payments', { managedBy: managed, path: 'f0.yaml' })],
    );
    const files = exportDescriptors(current);
    for (const source of [null, { ...REPO, id: 'src-9', name: 'another' }]) {
      const plan = planCatalog(readDescriptors(files), current, source);
      expect(plan.changes.map((c) => [c.kind, c.handle, c.action])).toEqual(
        expect.arrayContaining([
          ['team', 'payments', 'unchanged'],
          ['service', 'ledger', 'unchanged'],
          ['service', 'till', 'unchanged'],
          ['api', 'till-api', 'unchanged'],
        ]),
      );
      expect(plan.changes.every((c) => c.action === 'unchanged')).toBe(true);
      expect(formatPlan(plan.changes)).toMatch(/^No changes\./m);
    }
    // A definition the files change on another's service is a conflict.
    const edited = exportDescriptors({
      ...current,
      services: [current.services[0]!, { ...current.services[1]!, specs: [{ ...spec, content: 'openapi: 3.1.0\n' }] }],
    });
    const plan = planCatalog(readDescriptors(edited), current, null);
    expect(plan.changes.find((c) => c.kind === 'api')).toMatchObject({ action: 'conflict' });
  });

  it('deletes what an authoritative source no longer describes, but not from a file it could not read', () => {
    const current = catalogue([
      service('gone', { managedBy: managed, path: 'f0.yaml' }),
      service('kept', { managedBy: managed, path: 'f1.yaml' }),
      service('hand-made'),
    ]);
    const plan = planCatalog(read(component('new'), 'kind: [broken\n'), current, REPO);
    expect(plan.changes.map((c) => [c.handle, c.action])).toEqual([
      ['new', 'create'],
      ['', 'error'],
      ['gone', 'delete'],
      ['kept', 'error'],
    ]);
    expect(plan.orphans).toEqual([{ kind: 'service', id: 's-gone', handle: 'gone' }]);
    // A seed source deletes nothing, and leaves what exists as it is.
    const seed = planCatalog(read(component('kept', '  # changed\n').replace('production', 'deprecated')), current, {
      ...REPO,
      mode: 'seed',
    });
    expect(seed.changes.map((c) => [c.handle, c.action])).toEqual([['kept', 'unchanged']]);
    expect(seed.writes).toEqual([]);
  });

  it('is an error when the owner team exists neither in Beacon nor in the files, and never blocks the others', () => {
    const plan = planCatalog(
      read(component('orphan').replace('owner: payments', 'owner: nobody'), component('fine')),
      catalogue([]),
      null,
    );
    expect(plan.changes.map((c) => [c.handle, c.action])).toEqual([
      ['orphan', 'error'],
      ['fine', 'create'],
    ]);
    expect(formatPlan(plan.changes)).toContain(
      'f0.yaml:1: The owner team nobody is neither in Beacon nor in the files',
    );
  });
});
