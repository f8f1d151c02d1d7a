import { Link } from 'react-router-dom';

/** A router link that looks like a PrimeReact button (navigation, not an action, so it stays a link). */
export function LinkButton({
  to,
  label,
  icon,
  outlined = false,
}: {
  to: string;
  label: string;
  /** The icon's classes, e.g. 'pi pi-plus'. */
  icon?: string;
  outlined?: boolean;
}) {
  return (
    <Link to={to} className={`p-button p-component no-underline${outlined ? ' p-button-outlined' : ''}`}>
      {icon && <span className={`p-button-icon p-button-icon-left ${icon}`} aria-hidden="true" />}
      <span className="p-button-label">{label}</span>
    </Link>
  );
}
