/**
 * A read made once per arguments for as long as the function lives: what a job keeps for one batch (an outbox's
 * claimed rows, an escalation round), whose rows share a few workspaces, channels and policies. On PostgreSQL each
 * read is a round trip that waits for the pool beside the requests; a batch lasts moments, so "as it is now" still
 * holds.
 */
export function readOnce<A extends string[], V>(read: (...args: A) => V): (...args: A) => V {
  const kept = new Map<string, V>();
  return (...args) => {
    // Ids and handles hold no NUL, so the joined key names one set of arguments.
    const key = args.join('\u0000');
    if (!kept.has(key)) kept.set(key, read(...args));
    return kept.get(key)!;
  };
}
