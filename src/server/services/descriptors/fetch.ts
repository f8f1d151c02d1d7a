/**
 * Reading a URL source's descriptor files (docs/decisions.md#catalogue-as-code, issue 29): the root file the URL names,
 * then every file its Locations (and APIs' `$text` definitions) name, relative to it. Through the same SSRF guard as
 * health checks and webhooks. All or nothing: one file that cannot be read fails the whole read, so a sync never
 * applies part of a source (which would orphan what the missing files describe).
 */
import { isMap, parseAllDocuments } from 'yaml';
import { Agent, fetch, type Dispatcher } from 'undici';
import { resolveTarget, type DescriptorFile } from '../../../domain/descriptors.js';
import { urlCredential, withoutCredentials } from '../../../domain/url-credentials.js';
import { createGuardedAgent } from '../../../runner/guarded-agent.js';
import type { ServerContext } from '../../context.js';

export const FETCH_TIMEOUT_MS = 10_000;
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 20 * 1024 * 1024;
export const MAX_FILES = 200;

export type FetchedSource =
  | { status: 'unchanged' }
  | { status: 'ok'; files: DescriptorFile[]; etag: string | null }
  | { status: 'failed'; error: string };

export interface FetchOptions {
  /** Time allowed for each GET, body included (default 10 s). */
  timeoutMs?: number;
  /** The source's token, sent to each file as `Authorization: Bearer` (dropped on a redirect to another origin). */
  token?: string | null;
}

/** A reason a person can read; thrown inside a read, answered as `failed`. */
class ReadFailure extends Error {}

/**
 * Reads the files of the source at `url`. `etag` is what the last read answered: the ETag of every file it read
 * (JSON, path to ETag), so a read where every file answers 304 is `unchanged`; a root that answers 304 alone
 * proves nothing about the files it names. The answer's `etag` is null when some file had none.
 */
export async function fetchSourceFiles(
  ctx: ServerContext,
  url: string,
  etag: string | null,
  options: FetchOptions = {},
): Promise<FetchedSource> {
  let root: URL;
  try {
    root = new URL(url);
  } catch {
    // Not echoed: what cannot be parsed cannot be stripped of a credential.
    return { status: 'failed', error: "The source's URL is not a valid URL" };
  }
  const rootPath = lastSegment(root);
  if (!/^https?:$/.test(root.protocol) || rootPath === '') {
    return { status: 'failed', error: `${shown(root)} does not name a file (such as …/catalog-info.yaml)` };
  }
  const dispatcher: Dispatcher = ctx.config.allowPrivateTargets ? new Agent() : createGuardedAgent();
  const reader = new SourceReader(
    root,
    rootPath,
    dispatcher,
    options.timeoutMs ?? FETCH_TIMEOUT_MS,
    options.token ?? null,
  );
  try {
    const known = knownTags(etag, rootPath);
    if (known && (await reader.allUnchanged(known))) return { status: 'unchanged' };
    const { files, tags } = await reader.readAll();
    const complete = files.every((file) => tags.has(file.path));
    return { status: 'ok', files, etag: complete ? JSON.stringify(Object.fromEntries(tags)) : null };
  } catch (error) {
    if (error instanceof ReadFailure) return { status: 'failed', error: error.message };
    throw error;
  } finally {
    void dispatcher.destroy().catch(() => {});
  }
}

function lastSegment(url: URL): string {
  const segment = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The stored ETags, when they are of this root (the root first); else null, and the read is unconditional. */
function knownTags(etag: string | null, rootPath: string): Array<[string, string]> | null {
  if (!etag) return null;
  try {
    const parsed: unknown = JSON.parse(etag);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    const entries = Object.entries(parsed);
    if (entries[0]?.[0] !== rootPath || !entries.every(([, tag]) => typeof tag === 'string')) return null;
    return entries as Array<[string, string]>;
  } catch {
    return null;
  }
}

/** The URL as messages show it: never a credential (a URL saved before they were refused may hold one). */
function shown(url: URL): string {
  return urlCredential(url) ? withoutCredentials(url).href : url.href;
}

class SourceReader {
  private totalBytes = 0;

  constructor(
    private readonly root: URL,
    private readonly rootPath: string,
    private readonly dispatcher: Dispatcher,
    private readonly timeoutMs: number,
    private readonly token: string | null,
  ) {}

  urlOf(path: string): URL {
    if (path === this.rootPath) return this.root;
    // Relative to the root's folder, each segment encoded (a target is a path, not a URL).
    return new URL(path.split('/').map(encodeURIComponent).join('/'), new URL('.', this.root));
  }

  /** True when every file the last read read answers 304; false at the first that changed. */
  async allUnchanged(known: Array<[string, string]>): Promise<boolean> {
    for (const [path, tag] of known) {
      const answer = await this.get(path, tag);
      if (answer !== 'unchanged') return false;
    }
    return true;
  }

  /** The root, then the files it names, breadth-first, each once. */
  async readAll(): Promise<{ files: DescriptorFile[]; tags: Map<string, string> }> {
    const files: DescriptorFile[] = [];
    const tags = new Map<string, string>();
    const queued = new Set([this.rootPath]);
    const queue = [this.rootPath];
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const answer = await this.get(path, null);
      if (answer === 'unchanged') throw new ReadFailure(`GET ${shown(this.urlOf(path))} answered 304`);
      files.push({ path, content: answer.content });
      if (answer.etag) tags.set(path, answer.etag);
      for (const target of namedFiles(path, answer.content)) {
        if (queued.has(target)) continue;
        if (queued.size >= MAX_FILES) {
          throw new ReadFailure(`The source names more than ${MAX_FILES} files: Beacon reads at most ${MAX_FILES}`);
        }
        queued.add(target);
        queue.push(target);
      }
    }
    return { files, tags };
  }

  private async get(
    path: string,
    ifNoneMatch: string | null,
  ): Promise<'unchanged' | { content: string; etag: string | null }> {
    const url = this.urlOf(path);
    const label = `GET ${shown(url)}`;
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await fetch(url, {
        dispatcher: this.dispatcher,
        signal,
        headers: {
          accept: 'application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.8',
          'user-agent': 'Beacon-Catalog/1',
          ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
          // Every file is the root's or relative to its folder (urlOf): the same origin.
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
      });
      if (response.status === 304 && ifNoneMatch) {
        await response.body?.cancel();
        return 'unchanged';
      }
      if (response.status < 200 || response.status >= 300) {
        await response.body?.cancel();
        throw new ReadFailure(`${label} answered ${response.status}`);
      }
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > MAX_FILE_BYTES) {
        await response.body?.cancel();
        throw new ReadFailure(`${label}: the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
      }
      const content = await this.readBody(response.body, label);
      return { content, etag: response.headers.get('etag') };
    } catch (error) {
      if (error instanceof ReadFailure) throw error;
      if (signal.aborted) throw new ReadFailure(`${label} did not answer within ${duration(this.timeoutMs)}`);
      throw new ReadFailure(`${label} failed: ${reasonOf(error)}`);
    }
  }

  /** The body as text, stopping as soon as it passes the caps. */
  private async readBody(body: ReadableStream<Uint8Array> | null, label: string): Promise<string> {
    if (!body) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      this.totalBytes += value.byteLength;
      if (size > MAX_FILE_BYTES || this.totalBytes > MAX_TOTAL_BYTES) {
        await reader.cancel();
        throw new ReadFailure(
          size > MAX_FILE_BYTES
            ? `${label}: the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`
            : `The source's files together are larger than ${MAX_TOTAL_BYTES / 1024 / 1024} MB`,
        );
      }
      chunks.push(value);
    }
    return new TextDecoder().decode(Buffer.concat(chunks));
  }
}

/**
 * The files a descriptor file names, as readDescriptors reads them: Location targets and API `$text` definitions,
 * relative paths inside the root only (readDescriptors reports the others).
 */
export function namedFiles(path: string, content: string): string[] {
  const out: string[] = [];
  const add = (target: unknown) => {
    if (typeof target !== 'string' || /^[a-z]+:\/\//i.test(target)) return;
    const resolved = resolveTarget(path, target);
    if (resolved) out.push(resolved);
  };
  for (const doc of parseAllDocuments(content)) {
    if (doc.errors.length > 0 || !isMap(doc.contents)) continue;
    let json: { kind?: unknown; spec?: unknown };
    try {
      json = doc.toJS() as typeof json;
    } catch {
      continue; // say, too many aliases: readDescriptors reports the document
    }
    const spec = typeof json.spec === 'object' && json.spec !== null ? (json.spec as Record<string, unknown>) : {};
    const kind = typeof json.kind === 'string' ? json.kind.toLowerCase() : '';
    if (kind === 'location') {
      add(spec.target);
      if (Array.isArray(spec.targets)) spec.targets.forEach(add);
    } else if (kind === 'api' && typeof spec.definition === 'object' && spec.definition !== null) {
      add((spec.definition as { $text?: unknown }).$text);
    }
  }
  return out;
}

function duration(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}

const CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host was not found',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection closed early',
};

/** fetch's "fetch failed" wraps the cause that says what happened (a refused address, a refused connection). */
function reasonOf(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: string }).code;
    if (code === 'BEACON_REFUSED_ADDRESS') return current.message;
    if (code && CODES[code]) return CODES[code];
    if (current instanceof AggregateError && current.errors[0]) {
      current = current.errors[0];
      continue;
    }
    if (!current.cause) return current.message || code || 'unknown error';
    current = current.cause;
  }
  return String(current);
}
