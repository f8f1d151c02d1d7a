/**
 * The layers of the house (docs/architecture.md#layers) and the app's kernel/feature split, as import rules
 * (import-x/no-restricted-paths, resolved through TypeScript so `.js` specifiers find their `.ts` files).
 *
 * - domain imports nothing of ours; contract imports only domain; runner only domain, and the contract's types
 *   (type-only: the agent speaks the API's wire types and ships none of the contract's code; runnerTypeOnlyImports).
 * - server never imports the app, local, workers or the service worker; they never import server or runner.
 * - local (Dexie, outbox) sits below the app and never imports it; workers import neither.
 * - In src/app, the kernel (api, session, local, components, shell, routing, pwa, config) never imports a
 *   feature; a feature imports the kernel and another feature only through that feature's index.ts. The files
 *   at the top of src/app compose the features (routes, sections, write kinds) and may import any of them.
 * - In src/server, the areas of services/ stand on each other one way (SERVER_AREAS); services, cache and crypto
 *   never import what is above them (routes, jobs, the demo, the server's assembly).
 */
export const APP_KERNEL = ['api', 'session', 'local', 'components', 'shell', 'routing', 'pwa', 'config.ts'];
export const APP_FEATURES = [
  'auth',
  'home',
  'services',
  'health',
  'notices',
  'pages',
  'teams',
  'users',
  'dependencies',
  'admin',
  'notifications',
  'billing',
  'scorecards',
  'slo',
  'spec-checks',
  'alerts',
];
/** Where the app is put together: these may import any feature. */
export const APP_COMPOSITION = [
  'main.tsx',
  'root-app.tsx',
  'workspace-app.tsx',
  'app-shell.tsx',
  'service-page.tsx',
  'write-kinds.ts',
];

/**
 * The areas of src/server/services and the areas each stands on (docs/architecture.md#the-server-areas); an area
 * may import those and what they stand on, and no other area.
 */
export const SERVER_AREAS = {
  billing: [],
  events: [],
  alerting: ['events'],
  accounts: ['billing', 'events'],
  catalogue: ['accounts', 'alerting'],
  health: ['catalogue'],
  feeds: ['catalogue'],
  chat: ['catalogue'],
  reliability: ['catalogue'],
  'status-pages': ['health'],
  pages: ['health'],
  notices: ['status-pages'],
  descriptors: ['pages'],
  alerts: ['catalogue'],
};
/** What an area may import: the areas it stands on, and theirs in turn. */
export function serverAreasBelow(area) {
  const below = new Set();
  const visit = (name) => {
    for (const next of SERVER_AREAS[name]) {
      if (below.has(next)) continue;
      below.add(next);
      visit(next);
    }
  };
  visit(area);
  return [...below];
}
/** Above the services: they never import these. */
const SERVER_TOP = ['routes', 'jobs', 'demo', 'app.ts', 'main.ts', 'bootstrap.ts', 'operations.ts', 'http.ts'];

const ours = [
  'src/domain',
  'src/contract',
  'src/server',
  'src/runner',
  'src/app',
  'src/local',
  'src/workers',
  'src/sw',
];
const others = (...keep) => ours.filter((dir) => !keep.includes(dir));

export const boundaryZones = [
  {
    target: 'src/domain',
    from: [...others('src/domain'), 'src/cli.ts'],
    message: 'domain is pure: it imports nothing of ours',
  },
  { target: 'src/contract', from: others('src/domain', 'src/contract'), message: 'contract imports only domain' },
  {
    target: 'src/runner',
    from: others('src/domain', 'src/runner', 'src/contract'),
    message: 'the runner imports only domain (and the contract, type-only)',
  },
  {
    target: 'src/server',
    from: ['src/app', 'src/local', 'src/workers', 'src/sw'],
    message: 'the server never imports browser code',
  },
  {
    target: ['src/app', 'src/local', 'src/workers', 'src/sw'],
    from: ['src/server', 'src/runner', 'src/cli.ts'],
    message: 'browser code never imports server code',
  },
  { target: 'src/local', from: ['src/app'], message: 'the local-first layer sits below the app' },
  { target: 'src/workers', from: ['src/app', 'src/local'], message: 'workers import only domain and contract' },
  ...Object.keys(SERVER_AREAS).map((area) => ({
    target: `src/server/services/${area}`,
    from: Object.keys(SERVER_AREAS)
      .filter((other) => other !== area && !serverAreasBelow(area).includes(other))
      .map((other) => `src/server/services/${other}`),
    message: `a server area imports only the areas it stands on (${area}: ${serverAreasBelow(area).join(', ') || 'none'})`,
  })),
  {
    target: ['src/server/services', 'src/server/cache', 'src/server/crypto'],
    from: SERVER_TOP.map((part) => `src/server/${part}`),
    message: 'services, cache and crypto never import the routes, jobs, demo or the server assembly above them',
  },
  {
    target: ['src/server/cache', 'src/server/crypto'],
    from: ['src/server/services'],
    message: 'the kept answers and the keys sit below the services',
  },
  ...APP_KERNEL.map((kernel) => ({
    target: `src/app/${kernel}`,
    from: [...APP_FEATURES, ...APP_COMPOSITION].map((part) => `src/app/${part}`),
    message: 'the app kernel never imports a feature',
  })),
  ...APP_FEATURES.flatMap((feature) =>
    APP_FEATURES.filter((other) => other !== feature).map((other) => ({
      target: `src/app/${feature}`,
      from: `src/app/${other}`,
      except: ['./index.ts'],
      message: `features import each other only through index.ts (${feature} -> ${other})`,
    })),
  ),
];

/**
 * The runner may take the contract's types and nothing else of it (@typescript-eslint/no-restricted-imports with
 * allowTypeImports: `import type` passes, a value import is an error).
 */
export const runnerTypeOnlyImports = {
  files: ['src/runner/**/*.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/contract/**'],
            allowTypeImports: true,
            message: 'the runner imports the contract type-only (import type)',
          },
        ],
      },
    ],
  },
};
