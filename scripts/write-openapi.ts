/** Writes the OpenAPI document generated from src/contract to openapi.json (committed, so contract changes show in review). */
import { writeFileSync } from 'node:fs';
import { pino } from 'pino';
import { buildApp } from '../src/server/app.js';
import { closeContext, createContext } from '../src/server/bootstrap.js';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/connect.js';

const config = loadConfig({ BEACON_DATA_DIR: '/tmp/beacon-openapi' });
const ctx = await createContext(
  config,
  pino({ level: 'silent' }),
  openDatabase({ engine: 'sqlite', file: ':memory:' }),
);
const app = await buildApp(ctx);
await app.ready();
writeFileSync(new URL('../openapi.json', import.meta.url), `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
await closeContext(ctx);
console.log('openapi.json written');
