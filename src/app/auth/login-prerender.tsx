import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { LoginView } from './login-screen.js';

const ignore = () => undefined;

/**
 * The login card as the login screen first renders it (empty, titled "Log in" until the workspace's name is
 * read), as HTML: the build puts it in login.html (scripts/prerender-login.tsx), so a cold /login paints it before
 * the app's script has run, and the app then renders the same card in its place. Not part of the app's bundle.
 */
export function prerenderedLoginCard(): string {
  // Read-only until the app renders its own card in its place: what is typed before that would be lost with it.
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={['/login']}>
      <LoginView
        title="Log in"
        email=""
        password=""
        onEmail={ignore}
        onPassword={ignore}
        onSubmit={ignore}
        canSubmit={false}
        submitting={false}
        notices={[]}
        sso={null}
      />
    </MemoryRouter>,
  ).replaceAll('<input ', '<input readonly="" ');
}
