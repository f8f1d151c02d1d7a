import type { Health } from '../../domain/catalogue.js';

/**
 * Spec graph colours per health (good green, maintenance blue, warning orange, error yellow, critical red), in
 * shades that keep 3:1 against white; a label beside each always says the same in words.
 */
export const HEALTH_COLOURS: Record<Health, string> = {
  good: '#15803d',
  maintenance: '#1d4ed8',
  warning: '#c2410c',
  error: '#a16207',
  critical: '#b91c1c',
};
