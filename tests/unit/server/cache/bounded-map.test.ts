import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../../../src/server/cache/bounded-map.js';

describe('BoundedMap', () => {
  it('gives the oldest entries first when the weight passes the bound, a used one getting a second chance', () => {
    const dropped: string[] = [];
    const map = new BoundedMap<string, number>({ maxWeight: 3, onDrop: (key) => dropped.push(key) });
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1); // a was used: eviction passes it over once, moving it to the end
    map.set('d', 4);
    expect([...map].map(([key]) => key)).toEqual(['c', 'd', 'a']);
    expect(dropped).toEqual(['b']);
    expect(map.peek('c')).toBe(3); // a peek is no use: c goes next
    map.set('e', 5);
    expect(map.has('c')).toBe(false);
  });

  it('weighs entries, and an entry that grows can push others out', () => {
    const map = new BoundedMap<string, string>({ maxWeight: 100 });
    map.set('small', 's', 10);
    map.set('large', 'l', 60);
    expect(map.weight).toBe(70);
    map.addWeight('large', 35);
    expect(map.has('small')).toBe(false);
    expect(map.weight).toBe(95);
    map.set('large', 'l2', 20); // replacing takes off the old weight
    expect(map.weight).toBe(20);
  });

  it('refuses to keep a read that overlapped a forget, and evictions and expiries are not forgets', () => {
    const map = new BoundedMap<string, string>({ maxWeight: 1 });
    const before = map.epoch;
    map.set('x', 'one');
    map.set('y', 'two'); // evicts x
    map.expire('y');
    expect(map.keepUnlessForgotten('z', 'read', before)).toBe(true);
    const began = map.epoch;
    map.forget('unrelated');
    expect(map.keepUnlessForgotten('z', 'stale', began)).toBe(false);
    expect(map.peek('z')).toBe('read');
    const again = map.epoch;
    map.forgetKeys([]);
    expect(map.keepUnlessForgotten('z', 'stale', again)).toBe(false);
  });

  it('forgets what a predicate names, and everything', () => {
    const dropped: string[] = [];
    const map = new BoundedMap<string, number>({ maxWeight: 10, onDrop: (key) => dropped.push(key) });
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      map.set(key, value);
    map.forgetWhere((value) => value % 2 === 1);
    expect([...map]).toEqual([['b', 2]]);
    map.clear();
    expect(map.size).toBe(0);
    expect(dropped.sort()).toEqual(['a', 'b', 'c']);
  });
});
