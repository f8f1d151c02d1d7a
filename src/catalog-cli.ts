/**
 * `beacon catalog plan|apply|export` (docs/decisions.md#catalogue-as-code): the catalogue as code from CI, against a
 * running server with an API client's credentials (scope `beacon.catalog.manage`). Plan and apply print the plan as a
 * person reads it and exit non-zero when an entity is in error or conflict.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import type { CatalogPlanAnswer } from './contract/catalog.js';
import { formatPlan } from './domain/catalog-plan.js';
import type { DescriptorFile } from './domain/descriptors.js';
import { connect, type Connection } from './cli-connection.js';

const outside = (name: string) => name === '..' || name.startsWith(`..${sep}`) || isAbsolute(name);

/** The folder holding every one of `paths` (absolute). */
function commonFolder(paths: readonly string[]): string {
  let common = dirname(paths[0]!);
  while (paths.some((path) => outside(relative(common, path)))) common = dirname(common);
  return common;
}

/** The git work tree `folder` is in (the nearest folder up with a `.git`), or null. */
function workTreeOf(folder: string): string | null {
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return null;
  }
}

/**
 * The files as the server reads them: paths relative to the root (a Location's targets are), `/` between folders.
 * With `--root`, the files are named from it; without, from where the command runs, and the root is the git work
 * tree holding them, else their common folder: a repository's paths, wherever the command runs.
 */
async function readFiles(paths: readonly string[], root: string | undefined): Promise<DescriptorFile[]> {
  const files = paths.map((path) => resolve(root ?? '.', path));
  const base = root !== undefined ? resolve(root) : (workTreeOf(commonFolder(files)) ?? commonFolder(files));
  return Promise.all(
    files.map(async (file, index) => {
      const name = relative(base, file);
      if (outside(name)) throw new Error(`${paths[index]} is outside the root ${root} (--root)`);
      return { path: name.split(sep).join('/'), content: await readFile(file, 'utf8') };
    }),
  );
}

const failed = (plan: CatalogPlanAnswer) => plan.counts.error + plan.counts.conflict > 0;

type PlanOptions = Connection & { source?: string; root?: string };

async function planAndMaybeApply(files: string[], options: PlanOptions, applyIt: boolean) {
  const server = connect(options);
  try {
    const plan = await server.call<CatalogPlanAnswer>('POST', '/api/catalog/plans', {
      files: await readFiles(files, options.root),
      ...(options.source ? { source: options.source } : {}),
    });
    process.stdout.write(formatPlan(plan.changes));
    if (applyIt) {
      await server.call('POST', `/api/catalog/plans/${plan.id}/actions/apply`);
      process.stdout.write(`Applied plan ${plan.id}.\n`);
    }
    if (failed(plan)) process.exitCode = 2;
  } finally {
    await server.close();
  }
}

export function catalogCommand(program: Command): void {
  const catalog = program.command('catalog').description('the catalogue as code: Backstage descriptor files');
  const withConnection = (command: Command) =>
    command
      .requiredOption('--url <url>', 'the workspace address, e.g. https://acme.beacon.example')
      .option('--client-id <id>', 'client_id of an API client with beacon.catalog.manage', process.env.BEACON_CLIENT_ID)
      .option(
        '--client-secret <secret>',
        'its client_secret (or BEACON_CLIENT_SECRET, which keeps it out of the process list)',
        process.env.BEACON_CLIENT_SECRET,
      );
  withConnection(catalog.command('plan').argument('<files...>', 'descriptor files (catalog-info.yaml)'))
    .description('print what applying the files would do; exits 2 when an entity is in error or conflict')
    .option('--source <name>', 'plan against a source: its entities the files no longer describe are deleted')
    .option(
      '--root <dir>',
      'the folder the files and their Locations are relative to (default: their git work tree, else their common folder)',
    )
    .action((files: string[], options: PlanOptions) => planAndMaybeApply(files, options, false));
  withConnection(catalog.command('apply').argument('<files...>', 'descriptor files (catalog-info.yaml)'))
    .description('plan the files, print the plan and apply it; exits 2 when an entity is in error or conflict')
    .option('--source <name>', 'apply as a source: its entities the files no longer describe are deleted')
    .option(
      '--root <dir>',
      'the folder the files and their Locations are relative to (default: their git work tree, else their common folder)',
    )
    .action((files: string[], options: PlanOptions) => planAndMaybeApply(files, options, true));
  withConnection(catalog.command('export'))
    .description('write the workspace as descriptor files')
    .requiredOption('--dir <dir>', 'the folder to write them to')
    .action(async (options: Connection & { dir: string }) => {
      const server = connect(options);
      try {
        const { files } = await server.call<{ files: DescriptorFile[] }>('GET', '/api/catalog/export');
        for (const file of files) {
          const target = join(options.dir, file.path);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, file.content);
        }
        process.stdout.write(`Wrote ${files.length} files to ${options.dir}\n`);
      } finally {
        await server.close();
      }
    });
}
