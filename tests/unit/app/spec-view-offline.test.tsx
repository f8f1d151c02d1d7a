// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_VIEW_OFFLINE, SpecView } from '../../../src/app/pages/spec-view.js';

/** The API view's chunk: missing at first (offline, not kept on this device), then here. */
const chunk = vi.hoisted(() => ({ available: false, loads: 0 }));
vi.mock('../../../src/app/pages/swagger-view.js', () => {
  chunk.loads++;
  if (!chunk.available) throw new TypeError('Failed to fetch dynamically imported module');
  return { default: ({ spec }: { spec: { info: { title: string } } }) => <p>API view of {spec.info.title}</p> };
});

afterEach(cleanup);

const SPEC = 'openapi: 3.0.3\ninfo:\n  title: Ledger API\n  version: 1.0.0\npaths: {}\n';

describe('the spec view without its API view chunk', () => {
  it('shows the spec as written, then the API view once the chunk loads (back online)', async () => {
    render(<SpecView text={SPEC} />);
    expect(await screen.findByText(new RegExp(API_VIEW_OFFLINE.replace(/[.]/g, '\\.')))).toBeTruthy();
    expect(screen.getByLabelText('Spec as written').textContent).toBe(SPEC);
    expect(screen.queryByText('Parsing Error')).toBeNull();

    chunk.available = true;
    vi.resetModules();
    window.dispatchEvent(new Event('online'));
    cleanup();
    render(<SpecView text={SPEC} />);
    expect(await screen.findByText('API view of Ledger API')).toBeTruthy();
    expect(chunk.loads).toBeGreaterThanOrEqual(2);
  });
});
