import { Button } from 'primereact/button';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
} from 'react';

/** One step: a title, a text and, optionally, the element it points at (a CSS selector). */
export interface TourStep {
  id: string;
  title: string;
  text: string;
  target?: string;
}

/** The home tour (spec/platform.md, Home): welcome, profile menu, create menu, services nav, two panels. */
export const HOME_TOUR_STEPS: readonly TourStep[] = [
  {
    id: 'welcome',
    title: 'Welcome to Beacon',
    text: 'Beacon keeps your services, the teams that own them and their health in one place. This short tour shows you around.',
  },
  {
    id: 'profile',
    title: 'Your Profile',
    text: 'Open the user menu for your profile and settings, and to log out.',
    target: '.beacon-header [aria-label="User menu"]',
  },
  {
    id: 'create',
    title: 'Create',
    text: 'Create a service or a team from here.',
    target: '.beacon-header button[aria-controls="create-menu"]',
  },
  {
    id: 'explore',
    title: 'Explore Services',
    text: 'Browse every service, team and user of your workspace.',
    target: 'nav[aria-label="Main"]',
  },
  {
    id: 'teams-and-services',
    title: 'Your Teams and Services',
    text: 'The services your teams own and the teams you belong to, with their health at a glance.',
    target: '#home-my-panel',
  },
  {
    id: 'favorites',
    title: 'Favorites',
    text: 'Star a service to keep it here, one click away.',
    target: '#home-starred',
  },
];

/** Space kept around the highlighted element and between it and the step card. */
const PADDING = 6;
const GAP = 12;
const CARD_WIDTH = 360;
const MARGIN = 16;

interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

function measure(selector: string | undefined): Box | null {
  if (!selector) return null;
  const element = document.querySelector(selector);
  if (!element) return null;
  const rect = element.getBoundingClientRect();
  return { top: rect.top, left: rect.left, width: rect.width, height: rect.height };
}

/** Where the step card goes: under the element when it fits there, else above it; centred without one. */
function cardPosition(box: Box | null): CSSProperties {
  if (!box) return { top: '50%', left: '50%', transform: 'translate(-50%, -50%)' };
  const width = Math.min(CARD_WIDTH, window.innerWidth - 2 * MARGIN);
  const left = Math.max(MARGIN, Math.min(box.left, window.innerWidth - width - MARGIN));
  const below = box.top + box.height + PADDING + GAP;
  const roomBelow = window.innerHeight - below;
  return roomBelow >= 200 || box.top < 220
    ? { top: below, left }
    : { bottom: window.innerHeight - box.top + PADDING + GAP, left };
}

/**
 * A guided tour over the page: each step highlights its element (found by selector) and explains it in a
 * small dialog with Exit, Back and Next. Escape exits; focus stays in the dialog and returns on exit.
 */
export function GuidedTour({ steps, onClose }: { steps: readonly TourStep[]; onClose: () => void }) {
  const [index, setIndex] = useState(0);
  const [box, setBox] = useState<Box | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const step = steps[index]!;
  const last = index === steps.length - 1;

  // The element that had focus before the tour gets it back afterwards (read before the step takes focus).
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    return () => before?.focus?.();
  }, []);

  const place = useCallback(() => setBox(measure(step.target)), [step.target]);

  useLayoutEffect(() => {
    const element = step.target ? document.querySelector(step.target) : null;
    element?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    place();
    dialog.current?.querySelector<HTMLElement>('[data-tour-primary]')?.focus();
  }, [step.id, step.target, place]);

  useEffect(() => {
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [place]);

  function keyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    // Focus cycles through the dialog's buttons while the tour is open.
    const focusable = Array.from(dialog.current.querySelectorAll<HTMLElement>('button:not([disabled])'));
    const first = focusable[0];
    const end = focusable[focusable.length - 1];
    if (!first || !end) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      end.focus();
    } else if (!event.shiftKey && document.activeElement === end) {
      event.preventDefault();
      first.focus();
    }
  }

  const titleId = `tour-title-${step.id}`;
  const textId = `tour-text-${step.id}`;
  return (
    <div className="beacon-tour">
      {/* Blocks the page under the tour; dimmed here only when no element is highlighted. */}
      <div
        aria-hidden="true"
        style={{
          position: 'fixed',
          inset: 0,
          zIndex: 1100,
          background: box ? 'transparent' : 'rgba(15, 23, 42, 0.6)',
        }}
      />
      {box && (
        <div
          aria-hidden="true"
          data-tour-highlight={step.id}
          style={{
            position: 'fixed',
            top: box.top - PADDING,
            left: box.left - PADDING,
            width: box.width + 2 * PADDING,
            height: box.height + 2 * PADDING,
            borderRadius: 8,
            boxShadow: '0 0 0 4px #facc15, 0 0 0 9999px rgba(15, 23, 42, 0.6)',
            zIndex: 1101,
            pointerEvents: 'none',
          }}
        />
      )}
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        onKeyDown={keyDown}
        className="surface-card border-round shadow-4 p-4 text-900"
        style={{
          position: 'fixed',
          zIndex: 1102,
          width: CARD_WIDTH,
          maxWidth: `calc(100vw - ${2 * MARGIN}px)`,
          ...cardPosition(box),
        }}
      >
        <p className="m-0 text-sm text-700">
          Step {index + 1} of {steps.length}
        </p>
        <h2 id={titleId} className="text-xl font-semibold mt-1 mb-2">
          {step.title}
        </h2>
        <p id={textId} className="mt-0 mb-4 text-800 line-height-3">
          {step.text}
        </p>
        <div className="flex align-items-center gap-2">
          <Button type="button" label="Exit" text severity="secondary" onClick={onClose} />
          <div className="flex-1" />
          <Button
            type="button"
            label="Back"
            outlined
            disabled={index === 0}
            onClick={() => setIndex((current) => Math.max(0, current - 1))}
          />
          <Button
            type="button"
            label={last ? 'Finish' : 'Next'}
            data-tour-primary
            onClick={() => (last ? onClose() : setIndex((current) => Math.min(steps.length - 1, current + 1)))}
          />
        </div>
      </div>
    </div>
  );
}
