import { Tag } from 'primereact/tag';
import type { CatalogPlanAnswer } from '../../contract/catalog.js';
import { PLAN_ACTIONS, type PlanChange } from '../../domain/catalog-plan.js';
import { ACTION_LABELS } from './catalog-api.js';

/** At most this many changes are drawn; a large import says how many more there are. */
const SHOWN_MAX = 200;

/** A link as people write it; anything else as JSON. */
const showItem = (item: unknown): string => {
  if (typeof item === 'string') return item;
  const link = item as { name?: unknown; url?: unknown } | null;
  if (typeof link?.name === 'string' && typeof link.url === 'string') {
    return link.name === link.url ? link.url : `${link.name} (${link.url})`;
  }
  return JSON.stringify(item);
};

const show = (value: unknown): string => {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(showItem).join(', ');
  return showItem(value);
};

function ChangeItem({ change }: { change: PlanChange }) {
  const action = ACTION_LABELS[change.action];
  return (
    <li className="beacon-plan-change flex flex-column gap-1 py-2">
      <div className="flex flex-wrap align-items-center gap-2">
        <Tag value={action.label} icon={action.icon} severity={action.severity as 'info'} />
        <span className="font-semibold beacon-editor-wrap">
          {change.kind} {change.handle}
        </span>
        {change.path && (
          <code className="text-600 text-sm beacon-editor-wrap">
            {change.path}
            {change.line ? `:${change.line}` : ''}
          </code>
        )}
      </div>
      {change.diff && change.diff.length > 0 && (
        <dl className="beacon-plan-diff m-0">
          {change.diff.map((diff) => (
            <div key={diff.field}>
              <dt>{diff.field.replace(/_/g, ' ')}</dt>
              <dd>
                {change.action === 'create' ? (
                  <ins>{show(diff.to)}</ins>
                ) : (
                  <>
                    <del>{show(diff.from)}</del> <span aria-hidden="true">→</span>
                    <span className="beacon-visually-hidden"> becomes </span> <ins>{show(diff.to)}</ins>
                  </>
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {change.errors?.map((error, index) => (
        <p key={index} className="m-0 p-error text-sm beacon-editor-wrap">
          {error.path}:{error.line}: {error.message}
        </p>
      ))}
      {change.message && <p className="m-0 text-700 text-sm">{change.message}</p>}
      {change.unresolved && change.unresolved.length > 0 && (
        <p className="m-0 text-700 text-sm beacon-editor-wrap">
          Left out until they exist: {change.unresolved.join(', ')}
        </p>
      )}
    </li>
  );
}

/** A plan as a diff: its counts, then every change that does something (unchanged ones are only counted). */
export function PlanView({ plan }: { plan: CatalogPlanAnswer }) {
  const doing = plan.changes.filter((change) => change.action !== 'unchanged');
  const shown = doing.slice(0, SHOWN_MAX);
  return (
    <section aria-label="Plan" className="flex flex-column gap-2">
      <p className="m-0 flex flex-wrap gap-2" aria-label="Plan counts">
        {PLAN_ACTIONS.filter((action) => plan.counts[action] > 0).map((action) => (
          <Tag
            key={action}
            value={`${plan.counts[action]} ${ACTION_LABELS[action].label.toLowerCase()}`}
            severity={ACTION_LABELS[action].severity as 'info'}
          />
        ))}
      </p>
      {doing.length === 0 ? (
        <p className="m-0 font-semibold">No changes: the catalogue already says what these files say.</p>
      ) : (
        <ul className="list-none p-0 m-0 beacon-plan-changes" aria-label="Changes">
          {shown.map((change, index) => (
            <ChangeItem key={`${change.kind}:${change.handle}:${index}`} change={change} />
          ))}
        </ul>
      )}
      {doing.length > shown.length && <p className="m-0 text-700">And {doing.length - shown.length} more changes.</p>}
    </section>
  );
}
