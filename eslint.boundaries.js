/**
 * The layers of the house (docs/architecture.md#layers) and the app's kernel/feature split, as import rules
 * (import-x/no-restricted-paths, resolved through TypeScript so `.js` specifiers find their `.ts` files).
 *
 * - domain imports nothing of ours; contract imports only domain; runner only domain.
 * - server never imports the app, local, workers or the service worker; they never import server or runner.
 * - local (Dexie, outbox) sits below the app and never imports it; workers import neither.
 * - In src/app, the kernel (api, session, local, components, shell, routing, pwa, config) never imports a
 *   feature; a feature imports the kernel and another feature only through that feature's index.ts. The files
 *   at the top of src/app compose the features (routes, sections, write kinds) and may import any of them.
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
  { target: 'src/runner', from: others('src/domain', 'src/runner'), message: 'the runner imports only domain' },
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
