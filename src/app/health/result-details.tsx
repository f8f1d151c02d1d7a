import { Tag } from 'primereact/tag';
import type { AssertionResult } from '../../domain/check-kinds.js';
import { healthLabel } from '../../domain/catalogue.js';
import {
  actualText,
  certDaysLeftText,
  ERROR_CLASS_LABELS,
  expiryUnknownText,
  type LatestResult,
} from '../../domain/check-card.js';
import './health.css';

/** 'Assertion: status == 201: got 200'; an error stored before classes existed is its message alone. */
export function errorLine(error: NonNullable<LatestResult['error']>): string {
  return error.class ? `${ERROR_CLASS_LABELS[error.class]}: ${error.message}` : error.message;
}

/**
 * How a result went, in a line of tags and figures: passed or failed, the HTTP status, latency, certificate, and a
 * domain expiry that could not be known.
 */
export function ResultFacts({ result }: { result: LatestResult }) {
  return (
    <div className="flex flex-wrap align-items-center gap-2 text-sm">
      <Tag
        value={result.success ? 'Passed' : `Failed${result.severity ? ` (${healthLabel(result.severity)})` : ''}`}
        severity={result.success ? 'success' : 'danger'}
      />
      {result.status !== null && <span>HTTP {result.status}</span>}
      {result.latencyMs !== null && <span>Latency {result.latencyMs} ms</span>}
      {result.certDaysLeft !== null && <span>{certDaysLeftText(result.certDaysLeft)}</span>}
      {result.expiryUnknown !== null && <span>{expiryUnknownText(result.expiryUnknown)}</span>}
    </div>
  );
}

/** Pass, or fail with the severity it counts as. */
const verdict = (assertion: AssertionResult) => (assertion.pass ? 'Pass' : `Fail (${healthLabel(assertion.severity)})`);

/**
 * Every assertion of a result: source, op, expected, actual ('missing' when nothing was seen) and whether it
 * passed. The table scrolls sideways inside its column when it is wider (a phone).
 */
export function AssertionsTable({ assertions, label }: { assertions: AssertionResult[]; label: string }) {
  if (assertions.length === 0) return <p className="m-0 text-600 text-sm">No assertions were evaluated.</p>;
  return (
    // A region that may scroll is focusable, so a keyboard can scroll it too.
    <div className="beacon-assertions-scroll" role="region" aria-label={label} tabIndex={0}>
      <table className="beacon-assertions">
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Op</th>
            <th scope="col">Expected</th>
            <th scope="col">Actual</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {assertions.map((assertion, index) => (
            <tr key={index}>
              <td className="beacon-assertion-text">
                <code>{assertion.source}</code>
              </td>
              <td>
                <code>{assertion.op}</code>
              </td>
              <td className="beacon-assertion-text">{assertion.expected}</td>
              <td className="beacon-assertion-text">
                {assertion.actual === null ? <em>{actualText(null)}</em> : assertion.actual}
              </td>
              <td className={assertion.pass ? 'text-green-800' : 'text-red-700 font-semibold'}>{verdict(assertion)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The failing assertions of a result as a list that stacks on a phone: what was expected, what was seen. */
export function FailingAssertions({ assertions }: { assertions: AssertionResult[] }) {
  if (assertions.length === 0) return null;
  return (
    <ul className="beacon-failing-assertions flex flex-column gap-1 text-sm" aria-label="Failing assertions">
      {assertions.map((assertion, index) => (
        <li key={index}>
          <code>
            {assertion.source} {assertion.op}
          </code>{' '}
          expected <strong>{assertion.expected || '—'}</strong>, actual{' '}
          <strong>{assertion.actual === null ? <em>{actualText(null)}</em> : assertion.actual}</strong> (
          {healthLabel(assertion.severity)})
        </li>
      ))}
    </ul>
  );
}
