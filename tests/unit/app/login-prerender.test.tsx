// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LoginScreen from '../../../src/app/auth/login-screen.js';
import { prerenderedLoginCard } from '../../../src/app/auth/login-prerender.js';
import { AuthProvider } from '../../../src/app/session/auth-context.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** An element's tree as tags, attributes (sorted) and text, so two renderings can be compared. */
function shape(node: Element): string {
  const attributes = [...node.attributes]
    // Styles as the browser reads them: the server writes `max-width:400px`, React `max-width: 400px;`.
    .map((attribute) =>
      attribute.name === 'style'
        ? `style=${(node as HTMLElement).style.cssText}`
        : `${attribute.name}=${attribute.value}`,
    )
    .sort()
    .join(' ');
  const children = [...node.childNodes].map((child) =>
    child.nodeType === child.TEXT_NODE ? JSON.stringify(child.textContent) : shape(child as Element),
  );
  return `<${node.tagName.toLowerCase()} ${attributes}>${children.join('')}</${node.tagName.toLowerCase()}>`;
}

describe('the prerendered login card', () => {
  it('is the card the login screen first renders, so swapping one for the other moves nothing', async () => {
    // The workspace's name is not read yet: the screen's first render, as on a cold visit.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => undefined)),
    );
    const { container } = render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/login']}>
          <AuthProvider domain="acme">
            <Routes>
              <Route path="/login" element={<LoginScreen />} />
            </Routes>
          </AuthProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByRole('heading', { name: 'Log in' });
    const prerendered = document.createElement('div');
    prerendered.innerHTML = prerenderedLoginCard();
    // Its fields take no typing until the app's card replaces it; otherwise the two are the same.
    const fields = [...prerendered.querySelectorAll('input')];
    expect(fields.map((field) => field.readOnly)).toEqual([true, true]);
    for (const field of fields) field.removeAttribute('readonly');
    expect(shape(prerendered.querySelector('main')!)).toBe(shape(container.querySelector('main')!));
    expect(prerendered.querySelector('button[type="submit"]')?.hasAttribute('disabled')).toBe(true);
  });
});
