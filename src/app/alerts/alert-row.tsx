import { Link } from 'react-router-dom';
import type { Alert } from '../../contract/alerts.js';
import { fromNow } from '../components/from-now.js';
import { servicePath, teamPath } from '../routing/paths.js';
import { alertPath } from './alerts-api.js';
import { AlertActions, AlertStateTag, SeverityTag } from './alert-parts.js';
import './alerts.css';

/**
 * One alert of the list: a row of columns on a desktop, a stacked card on a phone (alerts.css). The summary opens the
 * alert's page; the service and team names open theirs.
 */
export function AlertRow({ alert }: { alert: Alert }) {
  return (
    // Summaries repeat from one service to the next ("Health went from Good to Critical"): the service names the row.
    <li className="beacon-alert-row" aria-label={`${alert.service.name}: ${alert.summary}`}>
      <div className="beacon-alert-severity-cell">
        <SeverityTag severity={alert.severity} />
      </div>
      <div className="beacon-alert-what">
        <Link to={alertPath(alert.id)} className="font-semibold beacon-alert-text">
          {alert.summary}
        </Link>
        <span className="text-sm text-700 beacon-alert-text">
          <Link to={servicePath(alert.service.handle)}>{alert.service.name}</Link>
          {' · '}
          <Link to={teamPath(alert.team.handle)}>{alert.team.name}</Link>
        </span>
      </div>
      <div className="text-sm text-700">
        Opened <time dateTime={alert.opened_at}>{fromNow(alert.opened_at)}</time>
      </div>
      <div>
        <AlertStateTag state={alert.state} />
      </div>
      <div className="beacon-alert-actions">
        <AlertActions alert={alert} />
      </div>
    </li>
  );
}
