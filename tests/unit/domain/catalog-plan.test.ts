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

  it('is a conflict when a hand-made entity or another source has the handle; a plan without source may update a hand-made one', () => {
    const other = { sourceId: 'src-2', sourceName: 'other-repo', mode: 'authoritative' as const };
    const current = catalogue([service('ledger'), service('till', { managedBy: other })]);
    const files = read(component('ledger'), component('till'));
    const bySource = planCatalog(files, current, REPO);
    expect(bySource.changes.map((c) => [c.handle, c.action, c.message])).toEqual([
      ['ledger', 'conflict', 'A service made in Beacon already has the handle ledger: rename or delete it first'],
      ['till', 'conflict', 'The service till is managed in other-repo: change it there'],
    ]);
    expect(bySource.writes).toEqual([]);
    const byHand = planCatalog(files, current, null);
    expect(byHand.changes.map((c) => [c.handle, c.action])).toEqual([
      ['ledger', 'unchanged'],
      ['till', 'conflict'],
    ]);
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
