// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useParams } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NARROW_SCREEN, SectionNav } from '../../../src/app/components/section-nav.js';
import { LocationProbe, violations } from './app-kit.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A window `width` px wide as matchMedia tells it; `resize` moves it and tells the listeners. */
function stubWidth(width: number) {
  const listeners = new Set<() => void>();
  let current = width;
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === NARROW_SCREEN && current < 768;
    },
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }));
  return {
    resize(next: number) {
      current = next;
      listeners.forEach((listener) => listener());
    },
  };
}

const SECTIONS = [
  { label: 'Overview', path: '', icon: 'pi pi-home' },
  { label: 'Health Checks', path: 'health-checks', icon: 'pi pi-heart' },
  { label: 'Notices', path: 'notices', icon: 'pi pi-megaphone' },
  { label: 'Settings', path: 'settings', icon: 'pi pi-cog' },
];

function Screen({ wide }: { wide: 'side' | 'tabs' }) {
  const section = useParams()['*'] ?? '';
  return (
    <>
      <SectionNav
        label="Service sections"
        id="service-sections"
        wide={wide}
        links={SECTIONS.map((entry) => ({
          label: entry.label,
          icon: entry.icon,
          to: entry.path ? `/services/payments/${entry.path}` : '/services/payments',
          active: section === entry.path,
        }))}
      />
      <h1>{section || 'overview'}</h1>
    </>
  );
}

function renderAt(url: string, wide: 'side' | 'tabs' = 'side') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/services/payments/*" element={<Screen wide={wide} />} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

const location = () => screen.getByTestId('location').textContent;

describe('the sections of a screen', () => {
  it('is the side menu of links on wide screens, the current one marked', () => {
    stubWidth(1366);
    renderAt('/services/payments/notices');
    const nav = screen.getByRole('navigation', { name: 'Service sections' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Overview', 'Health Checks', 'Notices', 'Settings']);
    expect(within(nav).getByRole('link', { name: 'Notices' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).queryByRole('button')).toBeNull();
  });

  it('is a row of tabs on wide screens for the team and profile screens', () => {
    stubWidth(1366);
    renderAt('/services/payments', 'tabs');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Notices' }));
    expect(location()).toBe('/services/payments/notices');
  });

  it('folds into one button showing the current section on phones, which opens the list and switches', async () => {
    stubWidth(390);
    renderAt('/services/payments/health-checks');
    const nav = screen.getByRole('navigation', { name: 'Service sections' });
    const button = within(nav).getByRole('button', { name: 'Service sections: Health Checks' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(within(nav).queryAllByRole('link')).toEqual([]);
    expect(await violations()).toEqual([]);

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const list = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(list.hidden).toBe(false);
    expect(within(nav).getByRole('link', { name: 'Health Checks' }).getAttribute('aria-current')).toBe('page');
    expect(await violations()).toEqual([]);

    fireEvent.click(within(nav).getByRole('link', { name: 'Notices' }));
    expect(location()).toBe('/services/payments/notices');
    expect(list.hidden).toBe(true);
    const moved = within(nav).getByRole('button', { name: 'Service sections: Notices' });
    expect(document.activeElement).toBe(moved);
  });

  it('works from the keyboard: arrows open and move through the list, Escape closes it on the button', () => {
    stubWidth(390);
    renderAt('/services/payments/notices');
    const button = screen.getByRole('button', { name: 'Service sections: Notices' });
    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    // It starts on the current section.
    expect(document.activeElement?.textContent).toBe('Notices');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Settings');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Overview');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Settings');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);

    fireEvent.keyDown(button, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('Settings');
  });

  it('closes on a tap outside, and follows the window across the breakpoint', () => {
    const width = stubWidth(390);
    renderAt('/services/payments');
    const button = screen.getByRole('button', { name: 'Service sections: Overview' });
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    fireEvent.pointerDown(screen.getByRole('heading', { name: 'overview' }));
    expect(button.getAttribute('aria-expanded')).toBe('false');

    act(() => width.resize(1024));
    expect(screen.queryByRole('button', { name: /Service sections/ })).toBeNull();
    expect(screen.getAllByRole('link')).toHaveLength(4);
    act(() => width.resize(390));
    expect(screen.getByRole('button', { name: 'Service sections: Overview' })).toBeTruthy();
  });
});
