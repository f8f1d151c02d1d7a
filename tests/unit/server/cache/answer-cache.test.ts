import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { Answer, TurnReads } from '../../../../src/server/cache/answer-cache.js';
import { random } from '../../../support/random.js';

/** Text that compresses as a page of bars does: repeated markup with varying words in it. */
function markup(bytes: number): Buffer {
  const next = random(7);
  const days = ['Nov 1: 100% uptime', 'Nov 2: 99.2% uptime', 'Nov 3: No data', 'Nov 4: Maintenance'];
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const part = `<li tabindex=0 class=g aria-label="${days[Math.floor(next() * days.length)]} ${Math.floor(next() * 1e6)}">`;
    parts.push(part);
    length += part.length;
  }
  return Buffer.from(parts.join(''));
}

describe('Answer', () => {
  it('makes each compressed twin once and gives it to every asker', async () => {
    const answer = new Answer(markup(200_000));
    const first = answer.encoded('br');
    expect(answer.encoded('br')).toBe(first);
    expect(brotliDecompressSync(await first).equals(answer.body)).toBe(true);
    expect(gunzipSync(await answer.encoded('gzip')).equals(answer.body)).toBe(true);
  });

  it('gives a large answer a quick twin until its small one is made, then the small one, counting only that', async () => {
    const grown: number[] = [];
    const answer = new Answer(markup(2_000_000), (bytes) => grown.push(bytes));
    for (const coding of ['br', 'gzip'] as const) {
      const decompress = coding === 'br' ? brotliDecompressSync : gunzipSync;
      const quick = await answer.encoded(coding);
      // Buffers compared with equals(): a deep comparison of 2 MB byte by byte takes seconds.
      expect(decompress(quick).equals(answer.body)).toBe(true);
      let kept = quick;
      await vi.waitFor(async () => {
        kept = await answer.encoded(coding);
        expect(kept.length).toBeLessThan(quick.length);
      });
      expect(decompress(kept).equals(answer.body)).toBe(true);
      expect(await answer.encoded(coding)).toBe(kept);
      expect(grown.at(-1)).toBe(kept.length);
    }
    expect(grown).toHaveLength(2);
  });

  it('makes no small twin of a large answer asked for only in its first moments (a version soon replaced)', async () => {
    const grown: number[] = [];
    const answer = new Answer(markup(2_000_000), (bytes) => grown.push(bytes));
    const quick = await answer.encoded('br');
    expect(await answer.encoded('br')).toBe(quick);
    // Nobody asks again: the small twin is not made meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(grown).toEqual([]);
    // Asked for again once it has lived on: the small twin is made, and given from then on.
    await vi.waitFor(async () => expect((await answer.encoded('br')).length).toBeLessThan(quick.length));
    expect(grown).toHaveLength(1);
  });
});

describe('TurnReads', () => {
  const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

  it('makes one read at the turn’s end for every request of the turn, after each of them asked', async () => {
    const reads = new TurnReads<number>();
    let value = 1;
    let made = 0;
    const read = () => {
      made++;
      return value;
    };
    const first = reads.read('ws', read);
    // A change after the first request asked, in the same turn: the shared read comes after it too.
    value = 2;
    const second = reads.read('ws', read);
    expect(made).toBe(0);
    expect(await Promise.all([first, second])).toEqual([2, 2]);
    expect(made).toBe(1);
  });

  it('reads again for a request of a later turn, and apart for each key', async () => {
    const reads = new TurnReads<string>();
    let value = 'before';
    const made: string[] = [];
    const read = (key: string) => () => {
      made.push(key);
      return `${key}:${value}`;
    };
    expect(await reads.read('a', read('a'))).toBe('a:before');
    value = 'after';
    await turnEnds();
    expect(await Promise.all([reads.read('a', read('a')), reads.read('b', read('b'))])).toEqual(['a:after', 'b:after']);
    expect(made).toEqual(['a', 'a', 'b']);
  });

  it('gives a failed read’s error to each of its requests, and reads afresh after', async () => {
    const reads = new TurnReads<number>();
    const failing = () => {
      throw new Error('database gone');
    };
    const asked = [reads.read('ws', failing), reads.read('ws', failing)];
    for (const request of asked) await expect(request).rejects.toThrow('database gone');
    expect(await reads.read('ws', () => 3)).toBe(3);
  });
});
