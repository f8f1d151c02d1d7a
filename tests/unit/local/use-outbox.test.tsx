// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mutate, replay } from '../../../src/local/outbox.js';
import { useOutboxStatus } from '../../../src/local/use-outbox.js';
import { freshDb, pathOf, testWrite } from './helpers.js';

describe('useOutboxStatus', () => {
  it('follows the pending and failed counts', async () => {
    const db = freshDb();
    const { result, unmount } = renderHook(() => useOutboxStatus(db));
    expect(result.current).toEqual({ pending: 0, failed: 0 });
    await act(async () => {
      for (const h of ['a', 'b'])
        await mutate(db, { apply: () => {}, write: testWrite(`/services/${h}/star`), label: h });
    });
    await waitFor(() => expect(result.current).toEqual({ pending: 2, failed: 0 }));
    await act(async () => {
      await replay(db, async (entry) => ({ status: pathOf(entry).includes('/a/') ? 409 : 204 }));
    });
    await waitFor(() => expect(result.current).toEqual({ pending: 0, failed: 1 }));
    unmount();
  });

  it('answers zeros without a database', () => {
    const { result } = renderHook(() => useOutboxStatus(null));
    expect(result.current).toEqual({ pending: 0, failed: 0 });
  });
});
