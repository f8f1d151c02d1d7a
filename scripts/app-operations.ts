/**
 * The contract as the web app's bundle gets it (vite.config.ts). At run time the app reads of an operation its
 * id, method and path (the API client, the outbox): the zod schemas of its params, body and answer are for the
 * server, the OpenAPI document and the app's types. Bundled as written, every operation the login screen calls
 * would bring zod and the schemas with it (some 23 KB compressed). So, in the app's build only:
 *
 * - each module of `src/contract/operations` that exports only groups of operations is bundled as data: the
 *   groups as the declarations make them (evaluated here, at build time), without their schemas. Types still
 *   come from the declarations, and a module exporting anything else (a helper) is bundled as written;
 * - the contract's modules are marked free of side effects, so one whose exports go unused (the schemas the
 *   operations named) is left out rather than run for nothing.
 *
 * The server, the unit tests and `npm run openapi` read the contract as written.
 */
import { pathToFileURL } from 'node:url';
import { register, type NamespacedUnregister } from 'tsx/esm/api';
import type { Plugin } from 'vite';

const CONTRACT = /[\\/]src[\\/]contract[\\/][\w/\\-]+\.ts$/;
const OPERATIONS = /[\\/]src[\\/]contract[\\/]operations[\\/][\w-]+\.ts$/;

type Group = { [name: string]: Record<string, unknown> | Group };

function isSchema(value: unknown): boolean {
  // Every zod 4 schema carries its internals under `_zod`.
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function isOperation(value: unknown): boolean {
  const operation = value as Record<string, unknown> | null;
  return (
    typeof operation === 'object' &&
    operation !== null &&
    typeof operation.id === 'string' &&
    typeof operation.method === 'string' &&
    typeof operation.path === 'string'
  );
}

/** A group of operations, or of groups (the pages' door of each section). */
function isGroup(value: unknown): value is Group {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length > 0 &&
    Object.values(value).every((member) => isOperation(member) || isGroup(member))
  );
}

/**
 * The module's exports as the app's bundle gets them: its groups of operations, every field but the schemas, as
 * plain data; null when it exports anything but groups of operations.
 */
export function operationsAsData(exports: Record<string, unknown>): Record<string, Group> | null {
  const entries = Object.entries(exports);
  if (entries.length === 0 || !entries.every(([, value]) => isGroup(value))) return null;
  const withoutSchemas = (_key: string, value: unknown) => (isSchema(value) ? undefined : value);
  return JSON.parse(JSON.stringify(exports, withoutSchemas)) as Record<string, Group>;
}

export function appOperations(): Plugin {
  let contract: NamespacedUnregister | null = null;
  return {
    name: 'beacon-app-operations',
    apply: 'build',
    async load(id) {
      if (!OPERATIONS.test(id)) return null;
      // One namespace for the whole build: the contract's modules are evaluated once, not once per file.
      contract ??= register({ namespace: 'beacon-app-operations' });
      const data = operationsAsData((await contract.import(pathToFileURL(id).href, import.meta.url)) as never);
      if (!data) return null;
      const code = Object.entries(data).map(([name, group]) => `export const ${name} = ${JSON.stringify(group)};\n`);
      return { code: code.join(''), moduleSideEffects: false };
    },
    transform(code, id) {
      return CONTRACT.test(id) ? { code, map: null, moduleSideEffects: false } : null;
    },
    async buildEnd() {
      await contract?.unregister();
      contract = null;
    },
  };
}
