import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A TCP port free at the time of asking. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export type BeaconProcess = ReturnType<typeof beacon>;

/** Runs the real `beacon` command and collects its output. */
export function beacon(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['bin/beacon.js', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    async waitFor(pattern: RegExp, timeoutMs = 20000): Promise<RegExpMatchArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = output.match(pattern);
        if (match) return match;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ${pattern} in output:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
