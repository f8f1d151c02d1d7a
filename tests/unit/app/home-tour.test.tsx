// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOME_TOUR_STEPS } from '../../../src/app/home/guided-tour.js';
import { makeUser, renderApp, resetLocalDb, stubApi } from './services-kit.js';

const me = makeUser('mia', { name: 'Mia' });

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

/** The parts of the shell the tour points at (the header is not part of these tests' tree). */
const header = (
  <header className="beacon-header">
    <nav aria-label="Main">
      <a href="/services">Services</a>
    </nav>
    <button type="button" aria-controls="create-menu">
      Create
    </button>
    <button type="button" aria-label="User menu">
      M
    </button>
  </header>
);

const TITLES = [
  'Welcome to Beacon',
  'Your Profile',
  'Create',
  'Explore Services',
  'Your Teams and Services',
  'Favorites',
];

async function startTour() {
  stubApi(me);
  renderApp('/', { aside: header });
  fireEvent.click(await screen.findByRole('button', { name: 'Help' }));
  return screen.getByRole('dialog');
}

function highlighted(): string | null {
  return document.querySelector('[data-tour-highlight]')?.getAttribute('data-tour-highlight') ?? null;
}

describe('guided tour', () => {
  it('has six steps: welcome, profile menu, create menu, services nav, teams and services, favorites', () => {
    expect(HOME_TOUR_STEPS.map((step) => step.id)).toEqual([
      'welcome',
      'profile',
      'create',
      'explore',
      'teams-and-services',
      'favorites',
    ]);
  });

  it('goes through the six steps with Next and Back, highlighting each element, and ends', async () => {
    let dialog = await startTour();
    expect(within(dialog).getByRole('heading', { name: 'Welcome to Beacon' })).toBeTruthy();
    expect(within(dialog).getByText('Step 1 of 6')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(true);
    // The welcome step points at nothing.
    expect(highlighted()).toBeNull();
    expect(document.activeElement?.textContent).toBe('Next');

    for (let step = 2; step <= 6; step++) {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
      dialog = screen.getByRole('dialog', { name: TITLES[step - 1] });
      expect(within(dialog).getByText(`Step ${step} of 6`)).toBeTruthy();
      expect(highlighted()).toBe(HOME_TOUR_STEPS[step - 1]!.id);
    }
    // Every step's target is on the page.
    for (const step of HOME_TOUR_STEPS) if (step.target) expect(document.querySelector(step.target)).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('dialog', { name: 'Your Teams and Services' })).toBeTruthy();
    expect(highlighted()).toBe('teams-and-services');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));

    dialog = screen.getByRole('dialog', { name: 'Favorites' });
    expect(within(dialog).queryByRole('button', { name: 'Next' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Finish' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(highlighted()).toBeNull();
  });

  it('exits from any step with Exit or Escape, and starts again at the first step', async () => {
    const dialog = await startTour();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('dialog', { name: 'Create' })).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Exit' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    const help = screen.getByRole('button', { name: 'Help' });
    // As a real click does.
    help.focus();
    fireEvent.click(help);
    expect(screen.getByRole('dialog', { name: 'Welcome to Beacon' })).toBeTruthy();
    expect(document.activeElement).not.toBe(help);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    // Focus goes back to the Help button.
    expect(document.activeElement).toBe(help);
  });
});
