export * from './common.js';
export * from './accounts.js';
export * from './catalogue.js';
export * from './health.js';
export * from './clients.js';
