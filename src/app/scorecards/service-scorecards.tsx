import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import type { ServiceScorecard } from '../../contract/scorecards.js';
import { failsOnText, levelName, nextLevel, RULE_STATE_LABELS } from '../../domain/scorecards.js';
import { isAdminRole } from '../../domain/roles.js';
import { useApi } from '../session/use-api.js';
import { useAuth } from '../session/auth-context.js';
import { ExemptionDialog, useEndExemption } from './exemption-dialog.js';
import { loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { Spinner } from '../components/status-screens.js';
import { formatNoticeTime } from '../notices/index.js';
import type { ServiceSection } from '../services/index.js';
import { LevelTag, RuleStateIcon } from './rule-state.js';
import { getServiceScorecardsQueryOptions, scorecardPath } from './scorecards-api.js';

type RuleRow = ServiceScorecard['rules'][number];

/** What a workspace admin may do with a rule: exempt a rule not passing, or end its exemption. */
function RuleActions({ rule, scorecard, service }: { rule: RuleRow; scorecard: string; service: string }) {
  const [exempting, setExempting] = useState(false);
  const end = useEndExemption(scorecard, service);
  if (rule.exemption) {
    return (
      <Button
        type="button"
        text
        size="small"
        label="End exemption"
        aria-label={`End the exemption of ${rule.name}`}
        loading={end.isPending}
        onClick={() => end.mutate(rule.exemption!.id)}
      />
    );
  }
  if (rule.state === 'pass') return null;
  return (
    <>
      <Button
        type="button"
        text
        size="small"
        label="Exempt"
        aria-label={`Exempt ${rule.name}`}
        onClick={() => setExempting(true)}
      />
      {exempting && (
        <ExemptionDialog scorecard={scorecard} service={service} rule={rule} onClose={() => setExempting(false)} />
      )}
    </>
  );
}

/** One rule: its state, name, what it saw, when a passing rule on a date fails, and an exemption's reason. */
function RuleLine({
  rule,
  levels,
  actions,
}: {
  rule: RuleRow;
  levels: ServiceScorecard['scorecard']['levels'];
  actions?: ReactNode;
}) {
  return (
    <li className="flex gap-2 py-2 border-bottom-1 surface-border">
      <RuleStateIcon state={rule.state} />
      <div className="flex flex-column gap-1" style={{ minWidth: 0 }}>
        <span>
          <span className="font-semibold">{rule.name}</span>{' '}
          <span className="text-600 text-sm">
            ({levelName(levels, rule.level)} · {RULE_STATE_LABELS[rule.state]})
          </span>
        </span>
        <span className="text-700 text-sm">
          {rule.value}
          {rule.fails_at && rule.state === 'pass' ? `: ${failsOnText(Date.parse(rule.fails_at))}` : ''}
        </span>
        {rule.remediation && (rule.state === 'fail' || rule.state === 'unknown') && (
          <span className="text-700 text-sm">
            <i className="pi pi-arrow-right text-xs mr-1" aria-hidden="true" />
            {rule.remediation}
          </span>
        )}
        {rule.exemption && (
          <span className="text-700 text-sm">
            Exempt until {formatNoticeTime(rule.exemption.expires_at)}: {rule.exemption.reason}
          </span>
        )}
      </div>
      {actions && <div className="ml-auto flex-shrink-0">{actions}</div>}
    </li>
  );
}

function ScorecardResultCard({
  result,
  service,
  admin,
}: {
  result: ServiceScorecard;
  service: string;
  admin: boolean;
}) {
  const { levels } = result.scorecard;
  const next = nextLevel(levels, result.level, result.rules);
  const id = `service-scorecard-${result.scorecard.handle}`;
  return (
    <Card>
      <article className="flex flex-column gap-3" aria-labelledby={id}>
        <header className="flex flex-wrap align-items-center gap-2">
          <h2 id={id} className="text-xl font-semibold m-0">
            <Link to={scorecardPath(result.scorecard.handle)}>{result.scorecard.name}</Link>
          </h2>
          <LevelTag levels={levels} level={result.level} />
          <span className="text-600">{result.score === null ? 'No rule counted' : `${result.score} %`}</span>
        </header>
        {next && next.blocking.length > 0 && (
          <section aria-label="What to do next" className="flex flex-column gap-2">
            <h3 className="text-base font-semibold m-0">To reach {next.level.name}</h3>
            <ul className="m-0 pl-4 flex flex-column gap-1">
              {next.blocking.map((rule) => (
                <li key={rule.key}>
                  <span className="font-semibold">{rule.name}</span>: {rule.value}
                  {rule.remediation && <span className="text-700"> · {rule.remediation}</span>}
                </li>
              ))}
            </ul>
          </section>
        )}
        <ul className="list-none m-0 p-0" aria-label={`${result.scorecard.name} rules`}>
          {result.rules.map((rule) => (
            <RuleLine
              key={rule.key}
              rule={rule}
              levels={levels}
              actions={
                admin ? <RuleActions rule={rule} scorecard={result.scorecard.handle} service={service} /> : undefined
              }
            />
          ))}
        </ul>
        <small className="text-600">As of {formatNoticeTime(result.evaluated_at)}</small>
      </article>
    </Card>
  );
}

/** The service's Scorecards tab (issue 28): each scorecard that applies, its level, and what to do next. */
function ServiceScorecards({ service }: { service: Service }) {
  const api = useApi();
  const { state: session } = useAuth();
  const admin = session.user ? isAdminRole(session.user.role) : false;
  const query = useQuery(getServiceScorecardsQueryOptions(api, service.handle));
  const state = loadStateOf(query);
  if (state === 'pending') return <Spinner label="Loading scorecards" />;
  if (state === 'offline') return <NotAvailableOffline />;
  const results = query.data ?? [];
  return (
    <section className="flex flex-column gap-3" aria-label="Scorecards">
      {/* The service screen above says when what is shown was last synced. */}
      {results.length === 0 ? (
        <Card>
          <p className="m-0 text-700">No scorecard applies to this service.</p>
        </Card>
      ) : (
        results.map((result) => (
          <ScorecardResultCard key={result.scorecard.handle} result={result} service={service.handle} admin={admin} />
        ))
      )}
    </section>
  );
}

export const scorecardsSection: ServiceSection = {
  label: 'Scorecards',
  icon: 'pi pi-verified',
  path: 'scorecards',
  shown: () => true,
  render: ({ service }) => <ServiceScorecards service={service} />,
};
