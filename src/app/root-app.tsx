import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { FullPageSpinner } from './components/status-screens.js';

const RegisterScreen = lazy(() => import('./auth/register-screen.js'));

function Landing() {
  return (
    <main className="flex flex-column justify-content-center align-items-center min-h-screen gap-3">
      <img src="/icons/icon-512.png" alt="Beacon" width={160} height={160} />
    </main>
  );
}

/** Without a workspace subdomain: /register, an exact / landing with the logo, anything else goes to /. */
export function RootApp() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Routes>
        <Route path="/register" element={<RegisterScreen />} />
        <Route path="/" element={<Landing />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Suspense>
  );
}

/** On the hosted sign-up host only /register exists; every other path goes there. */
export function SignupApp() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Routes>
        <Route path="/register" element={<RegisterScreen />} />
        <Route path="*" element={<Navigate to="/register" replace />} />
      </Routes>
    </Suspense>
  );
}
