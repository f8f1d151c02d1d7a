import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of eslint.boundaries.js, run through the project's real ESLint config over a few lines placed
 * (virtually) in the layer they would break: a wrong import fails `npm run lint`, a right one passes.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message);
}

describe('import boundaries', () => {
  it('refuses a feature reaching into another feature', async () => {
    const errors = await boundaryErrors(
      'src/app/services/lint-fixture.ts',
      "export { ProfileMuted } from '../users/profile-muted.js';\n",
    );
    expect(errors).toEqual([expect.stringContaining('features import each other only through index.ts')]);
  });

  it("lets a feature use another feature's index", async () => {
    const errors = await boundaryErrors(
      'src/app/health/lint-fixture.ts',
      "export type { ServiceSection } from '../services/index.js';\n",
    );
    expect(errors).toEqual([]);
  });

  it('refuses the kernel importing a feature', async () => {
    const errors = await boundaryErrors(
      'src/app/api/lint-fixture.ts',
      "export { starWrite } from '../services/index.js';\n",
    );
    expect(errors).toEqual([expect.stringContaining('the app kernel never imports a feature')]);
  });

  it('refuses browser code importing the server, and domain importing anything of ours', async () => {
    expect(
      await boundaryErrors('src/app/home/lint-fixture.ts', "export { buildApp } from '../../server/app.js';\n"),
    ).toEqual([expect.stringContaining('browser code never imports server code')]);
    expect(
      await boundaryErrors('src/domain/lint-fixture.ts', "export { errorBody } from '../contract/common.js';\n"),
    ).toEqual([expect.stringContaining('domain is pure')]);
    expect(
      await boundaryErrors('src/local/lint-fixture.ts', "export { keys } from '../app/api/query-keys.js';\n"),
    ).toEqual([expect.stringContaining('the local-first layer sits below the app')]);
  });

  it("lets the runner take the contract's types, and only its types", async () => {
    const lint = async (code: string) => {
      const [result] = await eslint.lintText(code, { filePath: 'src/runner/lint-fixture.ts' });
      return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
    };
    expect(await lint("export type { RunnerSync } from '../contract/clients.js';\n")).toEqual([]);
    expect(await lint("export { runnerSync } from '../contract/clients.js';\n")).toEqual([
      expect.stringContaining('the runner imports the contract type-only'),
    ]);
    expect(await lint("export { buildApp } from '../server/app.js';\n")).toEqual(
      expect.arrayContaining([expect.stringContaining('the runner imports only domain')]),
    );
  });

  it('holds every feature folder to the index rule, the newer ones too', async () => {
    const errors = await boundaryErrors(
      'src/app/spec-checks/lint-fixture.ts',
      "export { createHealthCheck } from '../health/health-api.js';\n",
    );
    expect(errors).toEqual([expect.stringContaining('features import each other only through index.ts')]);
  });

  it('lets a server area import the areas below it, and refuses one above', async () => {
    expect(
      await boundaryErrors(
        'src/server/services/pages/lint-fixture.ts',
        "export { flagSpecChecks } from '../health/spec-checks.js';\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'src/server/services/accounts/lint-fixture.ts',
        "export { createHealthCheck } from '../health/health.js';\n",
      ),
    ).toEqual([expect.stringContaining('a server area imports only the areas it stands on')]);
    expect(
      await boundaryErrors(
        'src/server/cache/lint-fixture.ts',
        "export { authenticateCookie } from '../services/accounts/auth.js';\n",
      ),
    ).toEqual([expect.stringContaining('the kept answers and the keys sit below the services')]);
    expect(
      await boundaryErrors(
        'src/server/services/health/lint-fixture.ts',
        "export { route } from '../../operations.js';\n",
      ),
    ).toEqual([expect.stringContaining('never import the routes, jobs, demo or the server assembly')]);
  });
});
