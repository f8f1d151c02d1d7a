/** "1 check", "3 checks", "2 people": a count with its noun, for every screen, message and rule that says one. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
