/**
 * A read made once per key for as long as the function lives: what a job keeps for one batch (an outbox's claimed
 * rows, an escalation round), whose rows share a few workspaces, channels and policies. On PostgreSQL each read is
 * a round trip that waits for the pool beside the requests; a batch lasts moments, so "as it is now" still holds.
 */
export function readOnce<V>(read: (key: string) => V): (key: string) => V {
  const kept = new Map<string, V>();
  return (key) => {
    if (!kept.has(key)) kept.set(key, read(key));
    return kept.get(key)!;
  };
}
