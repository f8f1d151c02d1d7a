/** Splits `items` into runs of at most `size`: for `IN (...)` lists and multi-row inserts under the engines' bound-parameter limits. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
