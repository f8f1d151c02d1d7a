import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { suspendedRedirect } from '../routing/guard.js';
import { BreadcrumbBar, BreadcrumbProvider } from './breadcrumb.js';
import { Header } from './header.js';

/** The main authenticated area: header, breadcrumb bar and the routed screen. */
export function Shell({ suspended }: { suspended: boolean }) {
  const { pathname } = useLocation();
  const redirect = suspended ? suspendedRedirect(pathname) : null;
  if (redirect) return <Navigate to={redirect} replace />;
  return (
    <BreadcrumbProvider>
      <div className="min-h-screen flex flex-column">
        <Header suspended={suspended} />
        <BreadcrumbBar />
        <main className="flex-1 p-4 beacon-main">
          <Outlet />
        </main>
      </div>
    </BreadcrumbProvider>
  );
}
