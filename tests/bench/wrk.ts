/**
 * BENCH_LOADER=wrk: the load from wrk (`apt-get install -y wrk`) instead of autocannon. On a machine of two cores
 * the load generator shares them with the server it measures: autocannon, in JavaScript, needs most of a core for
 * the rates measured here (it read the status page's 61 KB answer at about 1,000 req/s, the bound of that row),
 * where wrk, in C with its own event loop, needs a fraction. Same connections, same duration, same percentiles.
 * wrk runs as its own process, so it does not share the server's thread either.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

export const USE_WRK = process.env.BENCH_LOADER === 'wrk';

export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx or 3xx, and socket errors. */
  errors: number;
  /** wrk's lines on them, when there were any. */
  errorLines: string;
}

/** wrk's duration ("1.23ms", "456.00us", "1.01s") in ms. */
function ms(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) throw new Error(`wrk: cannot read the latency ${text}`);
  const value = Number(match[1]);
  return match[2] === 'us'
    ? value / 1000
    : match[2] === 'ms'
      ? value
      : match[2] === 's'
        ? value * 1000
        : value * 60_000;
}

/** Reads wrk's `--latency` report. */
export function parseWrk(out: string): WrkResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p50 = /^\s+50%\s+(\S+)/m.exec(out);
  const p99 = /^\s+99%\s+(\S+)/m.exec(out);
  if (!rps || !p50 || !p99) throw new Error(`wrk: cannot read its report:\n${out}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = Number(non2xx?.[1] ?? 0) + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0);
  const errorLines = out
    .split('\n')
    .filter((line) => /Non-2xx|Socket errors/.test(line))
    .map((line) => line.trim())
    .join('; ');
  return { rps: Number(rps[1]), p50: ms(p50[1]!), p99: ms(p99[1]!), errors, errorLines };
}

/**
 * `connections` connections on one wrk thread for `seconds`, asking `url` with `headers`; `script`, when given, is
 * a Lua script of wrk's (say, a `request` function that picks each request's path).
 */
export function wrk(
  url: string,
  options: { headers?: Record<string, string>; connections: number; seconds: number; script?: string },
): Promise<WrkResult> {
  const dir = options.script ? mkdtempSync(join(os.tmpdir(), 'beacon-wrk-')) : null;
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '--timeout', '10s'];
  // wrk adds its own `Host` unless one is given by that very name (its headers are a Lua table, keyed as written).
  for (const [name, value] of Object.entries(options.headers ?? {}))
    args.push('-H', `${name.toLowerCase() === 'host' ? 'Host' : name}: ${value}`);
  if (dir) {
    writeFileSync(join(dir, 'script.lua'), options.script!);
    args.push('-s', join(dir, 'script.lua'));
  }
  args.push(url);
  return new Promise<WrkResult>((resolve, reject) => {
    execFile('wrk', args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (dir) rmSync(dir, { recursive: true, force: true });
      if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT')
        return reject(new Error('wrk is not installed: apt-get install -y wrk (or BENCH_LOADER=autocannon)'));
      if (error) return reject(new Error(`wrk failed (${error.message}): ${stderr}`));
      try {
        resolve(parseWrk(stdout));
      } catch (failure) {
        reject(failure as Error);
      }
    });
  });
}
