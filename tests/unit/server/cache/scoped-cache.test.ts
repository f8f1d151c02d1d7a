import { describe, expect, it } from 'vitest';
import { ScopedCache, type Change, type Scoped } from '../../../../src/server/cache/scoped-cache.js';

/** A change log as the database keeps it (migration 032), read as the cache asks. */
function log(changes: Change[] = []) {
  return {
    changes,
    read: (after: number, upTo: number) => changes.filter((c) => c.version > after && c.version <= upTo),
  };
}

function made(value: string, scopes: string[]) {
  return () => Promise.resolve({ value, scopes, bytes: value.length });
}

describe('ScopedCache', () => {
  it('drops exactly the values holding a scope a change touched, and tells the hook each scope', async () => {
    const touched: string[] = [];
    const cache = new ScopedCache(1 << 20, { changed: (scope) => touched.push(scope) });
    const { changes, read } = log();
    cache.sync('w', 0, read);
    await cache.get('w', 'a', made('A', ['s1', 'list'])).value;
    await cache.get('w', 'b', made('B', ['s2', 'list'])).value;
    await cache.get('w', 'c', made('C', ['s3'])).value;
    changes.push({ version: 1, scope: 's1' }, { version: 2, scope: 's2' });
    cache.sync('w', 2, read);
    expect(touched).toEqual(['s1', 's2']);
    expect(cache.get('w', 'a', made('A2', [])).made).toBe(true);
    expect(cache.get('w', 'b', made('B2', [])).made).toBe(true);
    const c = cache.get('w', 'c', made('C2', []));
    expect([c.made, await c.value]).toEqual([false, 'C']);
    // Another workspace's log does not reach this one's values.
    cache.sync('v', 0, () => []);
    await cache.get('v', 'c', made('V', ['s3'])).value;
    changes.push({ version: 3, scope: 's3' });
    cache.sync('w', 3, read);
    expect(await cache.get('v', 'c', made('V2', [])).value).toBe('V');
  });

  it('drops a search only when an edit makes the row’s searched text hold its term, or stop holding it', async () => {
    const cache = new ScopedCache(1 << 20);
    const { changes, read } = log();
    cache.sync('w', 0, read);
    const searches = ['pay', 'money', 'find', 'ledger ledger'];
    // Asks each search again (keeping it as before): which were made afresh.
    const remade = async () => {
      const asked = searches.map((term) => ({ term, ...cache.get('w', term, made(term, [`text:services:${term}`])) }));
      await Promise.all(asked.map((a) => a.value));
      return asked.filter((a) => a.made).map((a) => a.term);
    };
    await remade();
    // Ledger's description edited: its text before and after, as the trigger logs them. "ledger ledger" matched
    // before and still does: its searches keep their rows and their order.
    changes.push(
      { version: 1, scope: 'text:services:ledger ledger pays out' },
      { version: 1, scope: 'text:services:ledger ledger money in, money out' },
    );
    cache.sync('w', 1, read);
    expect(await remade()).toEqual(['pay', 'money']);
    // A term of another list, or a text of another list, does not meet.
    await cache.get('w', 'teams find', made('T', ['text:teams:find'])).value;
    changes.push({ version: 2, scope: 'text:services:indexer' }, { version: 2, scope: 'text:services:indexer: finds' });
    cache.sync('w', 2, read);
    expect(cache.get('w', 'teams find', made('T2', [])).made).toBe(false);
    expect(await remade()).toEqual(['find']);
    // A text that is not ASCII may fold its case otherwise in the engine: every search of its list goes.
    changes.push(
      { version: 3, scope: 'text:services:caf\u00c9 ledger' },
      { version: 3, scope: 'text:services:cafe ledger' },
    );
    cache.sync('w', 3, read);
    expect(await remade()).toEqual(searches);
  });

  it('gives a value made while a change was synced to those already waiting; later askers only if the change left it', async () => {
    const cache = new ScopedCache(1 << 20);
    const { changes, read } = log();
    cache.sync('w', 0, read);
    let finish!: (value: Scoped<string>) => void;
    const first = cache.get('w', 'k', () => new Promise<Scoped<string>>((resolve) => (finish = resolve)));
    const joined = cache.get('w', 'k', made('never', []));
    expect(joined.made).toBe(false);
    changes.push({ version: 1, scope: 'x' });
    cache.sync('w', 1, read);
    // A request after a change waits for the read that began before it: the change touched what it shows, so the
    // request makes it afresh, and that is what is kept.
    const after = cache.get('w', 'k', made('fresh', ['x']));
    finish({ value: 'old', scopes: ['x'], bytes: 3 });
    expect([await first.value, await joined.value, await after.value]).toEqual(['old', 'old', 'fresh']);
    expect(await cache.get('w', 'k', made('again', [])).value).toBe('fresh');

    // A change elsewhere leaves the value as it was, whichever side of it the read fell: kept, and given to all.
    let finishOther!: (value: Scoped<string>) => void;
    const other = cache.get('w', 'o', () => new Promise<Scoped<string>>((resolve) => (finishOther = resolve)));
    changes.push({ version: 2, scope: 'elsewhere' });
    cache.sync('w', 2, read);
    const later = cache.get('w', 'o', made('never', []));
    finishOther({ value: 'kept', scopes: ['y'], bytes: 4 });
    expect([await other.value, await later.value]).toEqual(['kept', 'kept']);
    const again = cache.get('w', 'o', made('never', []));
    expect([again.made, await again.value]).toEqual([false, 'kept']);

    // An edit of a searched text that moves a search begun before it: remade for later askers.
    let finishSearch!: (value: Scoped<string>) => void;
    const search = cache.get('w', 's', () => new Promise<Scoped<string>>((resolve) => (finishSearch = resolve)));
    changes.push({ version: 3, scope: 'text:services:ledger' }, { version: 3, scope: 'text:services:ledger pays' });
    cache.sync('w', 3, read);
    const laterSearch = cache.get('w', 's', made('remade', ['text:services:pay']));
    finishSearch({ value: 'stale', scopes: ['text:services:pay'], bytes: 5 });
    expect([await search.value, await laterSearch.value]).toEqual(['stale', 'remade']);
  });

  it('drops all of a workspace when its log has a gap (versions pruned), and says so', async () => {
    const resets: string[] = [];
    const cache = new ScopedCache(1 << 20, { reset: (w) => resets.push(w) });
    cache.sync('w', 5, () => []);
    expect(resets).toEqual(['w']);
    await cache.get('w', 'a', made('A', ['s1'])).value;
    await cache.get('w', 'b', made('B', ['s2'])).value;
    // Versions 6 to 9, of which only 9 is still in the log.
    cache.sync('w', 9, () => [{ version: 9, scope: 'unrelated' }]);
    expect(resets).toEqual(['w', 'w']);
    expect(cache.get('w', 'a', made('A2', [])).made).toBe(true);
    expect(cache.get('w', 'b', made('B2', [])).made).toBe(true);
  });

  it('waits for a change log read that is under way, and never goes back to an older version', async () => {
    const cache = new ScopedCache(1 << 20);
    cache.sync('w', 0, () => []);
    await cache.get('w', 'a', made('A', ['s1'])).value;
    let reads = 0;
    const slow = (after: number, upTo: number) => {
      reads++;
      return new Promise<Change[]>((resolve) =>
        setTimeout(
          () => resolve([{ version: 1, scope: 's1' }].filter((c) => c.version > after && c.version <= upTo)),
          5,
        ),
      );
    };
    await Promise.all([cache.sync('w', 1, slow), cache.sync('w', 1, slow), cache.sync('w', 0, slow)]);
    expect(reads).toBe(1);
    expect(cache.get('w', 'a', made('A2', [])).made).toBe(true);
  });

  it('keeps within its budget, the least recently used going first, and does not keep a failure', async () => {
    const cache = new ScopedCache(10);
    cache.sync('w', 0, () => []);
    await cache.get('w', 'a', made('aaaa', [])).value;
    await cache.get('w', 'b', made('bbbb', [])).value;
    await cache.get('w', 'a', made('x', [])).value;
    await cache.get('w', 'c', made('cccc', [])).value;
    expect(cache.size).toBeLessThanOrEqual(10);
    expect(cache.get('w', 'a', made('x', [])).made).toBe(false);
    expect(cache.get('w', 'b', made('bbbb', [])).made).toBe(true);
    await expect(cache.get('w', 'f', () => Promise.reject(new Error('no'))).value).rejects.toThrow('no');
    expect(cache.get('w', 'f', made('ok', [])).made).toBe(true);
  });
});
