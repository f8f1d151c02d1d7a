import type { ServerContext } from './context.js';

/**
 * A value kept beside each server context rather than in it, so the context keeps its shape: per-process caches
 * live here, and each test server (its own context) starts with its own. Made on first use.
 */
export function perContext<T>(make: (ctx: ServerContext) => T): (ctx: ServerContext) => T {
  const values = new WeakMap<ServerContext, T>();
  return (ctx) => {
    let value = values.get(ctx);
    if (value === undefined) values.set(ctx, (value = make(ctx)));
    return value;
  };
}
