/**
 * `beacon alerts list|ack|resolve` (docs/api.md, "Alerts"): a team's alerts from a terminal or a script, with an
 * API client's credentials (scopes `beacon.alert.read`, and `beacon.alert.write` to answer).
 */
import type { Command } from 'commander';
import type { Alert } from './contract/alerts.js';
import { connect, type Connection } from './cli-connection.js';

interface ListOptions extends Connection {
  state?: string;
  severity?: string;
  team?: string;
  service?: string;
  limit: string;
}

/** One line per alert: id, state, severity, service (team), when it opened, what happened. */
export function formatAlerts(alerts: readonly Alert[]): string {
  if (alerts.length === 0) return 'No alerts.\n';
  return alerts
    .map((alert) =>
      [
        alert.id,
        alert.state.padEnd(12),
        alert.severity.padEnd(8),
        `${alert.service.handle} (${alert.team.handle})`,
        alert.opened_at,
        alert.summary,
      ].join('  '),
    )
    .join('\n')
    .concat('\n');
}

export function alertsCommand(program: Command): void {
  const alerts = program.command('alerts').description("alerts of the services your client's team can see");
  const withConnection = (command: Command) =>
    command
      .requiredOption('--url <url>', 'the workspace address, e.g. https://acme.beacon.example')
      .option(
        '--client-id <id>',
        'client_id of an API client with beacon.alert.read (and beacon.alert.write)',
        process.env.BEACON_CLIENT_ID,
      )
      .option(
        '--client-secret <secret>',
        'its client_secret (or BEACON_CLIENT_SECRET, which keeps it out of the process list)',
        process.env.BEACON_CLIENT_SECRET,
      );
  const run = async (options: Connection, work: (server: ReturnType<typeof connect>) => Promise<void>) => {
    const server = connect(options);
    try {
      await work(server);
    } finally {
      await server.close();
    }
  };
  withConnection(alerts.command('list'))
    .description('list alerts, newest first')
    .option(
      '--state <states>',
      'comma list of open, acknowledged, resolved (default: open,acknowledged)',
      'open,acknowledged',
    )
    .option('--severity <severities>', 'comma list of warning, error, critical')
    .option('--team <handle>', "one team's alerts")
    .option('--service <handle>', "one service's alerts")
    .option('--limit <n>', 'at most this many', '50')
    .action((options: ListOptions) =>
      run(options, async (server) => {
        const query = new URLSearchParams({ limit: options.limit });
        for (const key of ['state', 'severity', 'team', 'service'] as const) {
          const value = options[key];
          if (value) query.set(key, value);
        }
        process.stdout.write(formatAlerts(await server.call<Alert[]>('GET', `/api/alerts?${query}`)));
      }),
    );
  withConnection(alerts.command('ack').argument('<id>', "the alert's id"))
    .description('acknowledge an open alert: its escalation stops')
    .action((id: string, options: Connection) =>
      run(options, async (server) => {
        const alert = await server.call<Alert>('POST', `/api/alerts/${encodeURIComponent(id)}/actions/acknowledge`, {});
        process.stdout.write(`Acknowledged ${alert.service.name}: ${alert.summary}\n`);
      }),
    );
  withConnection(alerts.command('resolve').argument('<id>', "the alert's id"))
    .description('resolve an alert by hand (allowed while the service still fails)')
    .option('--reason <text>', 'why, for the timeline')
    .action((id: string, options: Connection & { reason?: string }) =>
      run(options, async (server) => {
        const body = options.reason ? { reason: options.reason } : {};
        const alert = await server.call<Alert>('POST', `/api/alerts/${encodeURIComponent(id)}/actions/resolve`, body);
        process.stdout.write(`Resolved ${alert.service.name}\n`);
      }),
    );
}
