import { describe, expect, it } from 'vitest';
import {
  parseEntityRef,
  parseSloAnnotation,
  readDescriptors,
  type ReadDescriptors,
  resolveTarget,
  type ServiceEntity,
} from '../../../src/domain/descriptors.js';

/** Issue 29: Backstage descriptor files read into Beacon's entities, every problem with its file and line. */

const CATALOG_INFO = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: Checkout
  title: Checkout service
  description: Takes the money
  links:
    - url: https://wiki.example.com/checkout
      title: Runbook
    - url: https://grafana.example.com/d/checkout
  annotations:
    beacon.io/visibility: workspace
    beacon.io/health-check-url: https://checkout.example.com/health
    beacon.io/slo: 99.9% 30d
    beacon.io/slack-channel: "#checkout"
    beacon.io/previous-names: till, cashdesk
spec:
  type: service
  lifecycle: production
  owner: group:default/payments
  system: shop
  dependsOn:
    - component:ledger
    - Component:default/Identity
    - resource:orders-db
    - component:partner/fraud-check
  providesApis:
    - checkout-api
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: checkout-api
  description: The checkout API
spec:
  type: openapi
  lifecycle: production
  owner: payments
  definition:
    $text: ./openapi.yaml
---
apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: payments
  title: Payments
spec:
  type: team
  parent: engineering
  children: []
  members: [ada, user:default/bob]
---
apiVersion: backstage.io/v1alpha1
kind: System
metadata:
  name: shop
spec:
  owner: payments
---
apiVersion: backstage.io/v1alpha1
kind: Location
metadata:
  name: more
spec:
  targets:
    - ./teams/platform.yaml
`;

const PLATFORM = `apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: platform
spec:
  type: team
  children: []
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: ledger
spec:
  type: service
  lifecycle: deprecated
  owner: platform
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: events
spec:
  type: asyncapi
  lifecycle: production
  owner: platform
  definition: "asyncapi: 2.0.0"
`;

const OPENAPI = 'openapi: 3.0.3\ninfo: { title: Checkout, version: "1" }\npaths: {}\n';

describe('reading descriptor files', () => {
  it('reads every documented shape: several documents, compound and short references, links, annotations', () => {
    const read = readDescriptors([
      { path: 'catalog-info.yaml', content: CATALOG_INFO },
      { path: 'teams/platform.yaml', content: PLATFORM },
      { path: 'openapi.yaml', content: OPENAPI },
    ]);
    expect(read.problems).toEqual([]);
    expect(read.errored).toEqual([]);
    const checkout = read.entities.find((e) => e.handle === 'checkout') as ServiceEntity;
    expect(checkout).toEqual({
      kind: 'service',
      handle: 'checkout',
      name: 'Checkout service',
      description: 'Takes the money',
      owner: 'payments',
      stage: 'live',
      visibility: 'workspace',
      links: [
        { name: 'Runbook', url: 'https://wiki.example.com/checkout' },
        { name: 'https://grafana.example.com/d/checkout', url: 'https://grafana.example.com/d/checkout' },
      ],
      // The resource is left out (Beacon keeps none); another namespace is another workspace.
      dependsOn: [
        { workspace: null, handle: 'ledger' },
        { workspace: null, handle: 'identity' },
        { workspace: 'partner', handle: 'fraud-check' },
      ],
      providesApis: ['checkout-api'],
      healthCheckUrl: 'https://checkout.example.com/health',
      slo: { target: 99.9, window_days: 30 },
      slackChannel: 'checkout',
      previousNames: ['till', 'cashdesk'],
      place: { path: 'catalog-info.yaml', line: 1 },
    });
    expect(read.entities.find((e) => e.kind === 'api')).toMatchObject({
      handle: 'checkout-api',
      owner: 'payments',
      definition: OPENAPI,
      place: { path: 'catalog-info.yaml', line: 30 },
    });
    expect(read.entities.find((e) => e.handle === 'payments')).toMatchObject({
      kind: 'team',
      name: 'Payments',
      parent: 'engineering',
      members: ['ada', 'bob'],
    });
    expect(read.entities.find((e) => e.handle === 'ledger')).toMatchObject({ stage: 'eol', owner: 'platform' });
    expect(read.entities.map((e) => `${e.kind}:${e.handle}`).sort()).toEqual([
      'api:checkout-api',
      'service:checkout',
      'service:ledger',
      'team:payments',
      'team:platform',
    ]);
    // Kinds Beacon has no place for are skipped and said so, never errors.
    expect(read.skipped.map((s) => [s.kind, s.name, s.path, s.line])).toEqual([
      ['System', 'shop', 'catalog-info.yaml', 53],
      ['API', 'events', 'teams/platform.yaml', 18],
    ]);
  });

  it('says what is wrong with an entity, by file and line, and reads the others', () => {
    const content = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: good-one
spec:
  lifecycle: experimental
  owner: payments
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: Bad_Name
spec:
  owner: payments
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: no-owner
  annotations:
    beacon.io/slo: "100% 30d"
spec:
  lifecycle: sunset
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: user-owned
spec:
  owner: user:ada
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: good-one
spec:
  owner: payments
`;
    const read = readDescriptors([{ path: 'services.yaml', content }]);
    expect(read.entities.map((e) => e.handle)).toEqual(['good-one']);
    expect(read.entities[0]).toMatchObject({ stage: 'development' });
    const errors = read.errored.map((e) => [e.handle, e.errors.map((x) => `${x.path}:${x.line} ${x.message}`)]);
    expect(errors).toEqual([
      [
        null,
        [
          'services.yaml:12 metadata.name "Bad_Name" cannot be a Beacon handle: at least 3 letters or digits, joined by single hyphens',
        ],
      ],
      [
        'no-owner',
        [
          'services.yaml:22 spec.owner is required: the team (Group) that owns it',
          'services.yaml:23 spec.lifecycle "sunset" is not one Beacon knows: experimental, production or deprecated',
          'services.yaml:21 beacon.io/slo must read like "99.9% 30d": a target below 100 over 7, 28 or 30 days',
        ],
      ],
      ['user-owned', ['services.yaml:30 spec.owner "user:ada" must name a Group: Beacon\'s owners are teams']],
      ['good-one', ['services.yaml:32 good-one is already described at services.yaml:1']],
    ]);
  });

  it('reports a file that is not YAML, a document with no kind, and a Location whose target is missing', () => {
    const read = readDescriptors([
      { path: 'broken.yaml', content: 'kind: Component\nmetadata:\n  name: [unclosed\n' },
      { path: 'odd.yaml', content: 'metadata:\n  name: nameless\n' },
      {
        path: 'all.yaml',
        content: 'apiVersion: backstage.io/v1alpha1\nkind: Location\nspec:\n  target: ./missing.yaml\n',
      },
    ]);
    expect(read.entities).toEqual([]);
    expect(read.problems.map((p) => `${p.path}:${p.line}`)).toEqual(['broken.yaml:4', 'odd.yaml:1', 'all.yaml:4']);
    expect(read.problems[0]!.message).toMatch(/^Not valid YAML: /);
    expect(read.problems[1]!.message).toBe('The document has no kind');
    expect(read.problems[2]!.message).toBe('The Location\'s target "./missing.yaml" is not among the files');
  });

  it('parses references, relative targets and SLO annotations as Backstage and Beacon write them', () => {
    expect(parseEntityRef('Group:Default/Payments', 'group')).toEqual({
      kind: 'group',
      namespace: 'default',
      name: 'payments',
    });
    expect(parseEntityRef('ledger', 'component')).toEqual({ kind: 'component', namespace: 'default', name: 'ledger' });
    expect(parseEntityRef('a:b:c', 'component')).toBeNull();
    expect(resolveTarget('a/b/catalog.yaml', '../c/d.yaml')).toBe('a/c/d.yaml');
    expect(resolveTarget('catalog.yaml', './x.yaml')).toBe('x.yaml');
    expect(resolveTarget('catalog.yaml', '../outside.yaml')).toBeNull();
    expect(parseSloAnnotation('99.95 over 7d')).toEqual({ target: 99.95, window_days: 7 });
    expect(parseSloAnnotation('99.9/28d')).toEqual({ target: 99.9, window_days: 28 });
    expect(parseSloAnnotation('99.9% 14d')).toBeNull();
  });

  it('reads a file with anchors and aliases as the same entities, at the same lines, as one without', () => {
    const plain = `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: one\n  title: One\n  description: One\nspec:\n  owner: payments\n---\n# two\napiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: two\nspec:\n  owner: payments\n  lifecycle: sunset\n`;
    const aliased = plain.replace('title: One\n  description: One', 'title: &same One\n  description: *same');
    const [a, b] = [plain, aliased].map((content) => readDescriptors([{ path: 'f.yaml', content }])) as [
      ReadDescriptors,
      ReadDescriptors,
    ];
    expect(b).toEqual(a);
    expect(a.entities.map((e) => [e.handle, e.place.line])).toEqual([['one', 1]]);
    expect(a.errored[0]?.errors.map((e) => e.line)).toEqual([17]);
  });

  it('refuses a document whose aliases expand without end, and still reads the other files', () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      laughs.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const read = readDescriptors([
      { path: 'laughs.yaml', content: `${laughs.join('\n')}\nkind: Component\n` },
      {
        path: 'fine.yaml',
        content: 'apiVersion: backstage.io/v1alpha1\nkind: Group\nmetadata:\n  name: fine\nspec: {}\n',
      },
    ]);
    expect(read.problems).toEqual([
      expect.objectContaining({ path: 'laughs.yaml', message: expect.stringContaining('Not valid YAML') }),
    ]);
    expect(read.entities.map((e) => e.handle)).toEqual(['fine']);
  });
});
