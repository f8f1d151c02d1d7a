/** A colour per level rank (-1: no level), the lowest greyest; shared by the level spread and the trends. */
const LEVEL_COLOURS = [
  'var(--gray-300)',
  'var(--orange-300)',
  'var(--blue-300)',
  'var(--green-400)',
  'var(--teal-500)',
];

export function levelColour(rank: number): string {
  return LEVEL_COLOURS[Math.min(rank + 1, LEVEL_COLOURS.length - 1)]!;
}
