import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { suspendedRedirect } from '../routing/guard.js';
import { BreadcrumbBar, BreadcrumbProvider } from './breadcrumb.js';
import { Header, type BellProps, type NavCounts } from './header.js';

/**
 * The main authenticated area: header, breadcrumb bar and the routed screen. `bell` is what the header's
 * notifications bell shows and `navCounts` the counts beside its main links (the kernel imports no feature:
 * app-shell.tsx fills them in).
 */
export function Shell({ suspended, bell, navCounts }: { suspended: boolean; bell?: BellProps; navCounts?: NavCounts }) {
  const { pathname } = useLocation();
  const redirect = suspended ? suspendedRedirect(pathname) : null;
  if (redirect) return <Navigate to={redirect} replace />;
  return (
    <BreadcrumbProvider>
      <div className="min-h-screen flex flex-column">
        <Header suspended={suspended} navCounts={navCounts} {...bell} />
        <BreadcrumbBar />
        <main className="flex-1 p-4 beacon-main">
          <Outlet />
        </main>
      </div>
    </BreadcrumbProvider>
  );
}
