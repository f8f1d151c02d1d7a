/**
 * Every kind of scope the catalogue's change log holds (migrations 032, 033 and 036 write them in their triggers)
 * and the kept answers name: the one place that spells them. Everything else makes a scope with {@link scopeOf}
 * and reads one with {@link parseScope}; tests/unit/server/cache/scopes.test.ts checks the triggers' strings
 * against this list, both ways.
 */

/** The lists whose pages are kept: a row in or out of one, or a column its pages sort or filter by, moves it. */
export const LISTS = ['services', 'teams', 'users'] as const;
export type ListName = (typeof LISTS)[number];

export type Scope =
  /** A row's id: a service, a team (and its parent), a user, a managed entity. */
  | { kind: 'row'; id: string }
  /** A list as its pages sort and filter it. */
  | { kind: 'list'; list: ListName }
  /** Only a list's searches (a column only searched changed). */
  | { kind: 'search'; list: ListName }
  /** A row's searched text before or after an edit; as a kept value's scope, the term it searched for. */
  | { kind: 'text'; list: ListName; text: string }
  /** A team's members. */
  | { kind: 'members'; teamId: string }
  /** A user's teams. */
  | { kind: 'member'; userId: string }
  /** A user's stars. */
  | { kind: 'stars'; userId: string }
  /** A session ended or changed. */
  | { kind: 'session'; sessionId: string }
  /** The workspace's own row (status, domain, name or login). */
  | { kind: 'workspace'; workspaceId: string }
  /** An API client edited or deleted. */
  | { kind: 'client'; clientId: string };

/** The prefix of each kind that is written `{prefix}{id}` (the triggers write `'members:' || team_id`). */
export const ID_PREFIXES = {
  members: 'members:',
  member: 'member:',
  stars: 'stars:',
  session: 'session:',
  workspace: 'workspace:',
  client: 'client:',
} as const;

const SEARCH_SUFFIX = ':search';
const TEXT_PREFIX = 'text:';

type IdKind = keyof typeof ID_PREFIXES;
const ID_KINDS = Object.keys(ID_PREFIXES) as IdKind[];

/** The string a scope is logged and held as. */
export function scopeOf(scope: Scope): string {
  switch (scope.kind) {
    case 'row':
      return scope.id;
    case 'list':
      return scope.list;
    case 'search':
      return `${scope.list}${SEARCH_SUFFIX}`;
    case 'text':
      return `${TEXT_PREFIX}${scope.list}:${scope.text}`;
    case 'members':
      return ID_PREFIXES.members + scope.teamId;
    case 'member':
      return ID_PREFIXES.member + scope.userId;
    case 'stars':
      return ID_PREFIXES.stars + scope.userId;
    case 'session':
      return ID_PREFIXES.session + scope.sessionId;
    case 'workspace':
      return ID_PREFIXES.workspace + scope.workspaceId;
    case 'client':
      return ID_PREFIXES.client + scope.clientId;
  }
}

const isList = (value: string): value is ListName => (LISTS as readonly string[]).includes(value);

/** The `text:{list}:` prefix of a text scope, or null for any other scope (the scoped cache indexes terms by it). */
export function textListOf(scope: string): string | null {
  if (!scope.startsWith(TEXT_PREFIX)) return null;
  const end = scope.indexOf(':', TEXT_PREFIX.length);
  return end < 0 || !isList(scope.slice(TEXT_PREFIX.length, end)) ? null : scope.slice(0, end + 1);
}

/** What a logged or held scope names. A string of no other kind is a row's id. */
export function parseScope(scope: string): Scope {
  if (isList(scope)) return { kind: 'list', list: scope };
  if (scope.endsWith(SEARCH_SUFFIX)) {
    const list = scope.slice(0, -SEARCH_SUFFIX.length);
    if (isList(list)) return { kind: 'search', list };
  }
  const textList = textListOf(scope);
  if (textList) {
    return {
      kind: 'text',
      list: textList.slice(TEXT_PREFIX.length, -1) as ListName,
      text: scope.slice(textList.length),
    };
  }
  for (const kind of ID_KINDS) {
    const prefix = ID_PREFIXES[kind];
    if (!scope.startsWith(prefix)) continue;
    const id = scope.slice(prefix.length);
    switch (kind) {
      case 'members':
        return { kind, teamId: id };
      case 'member':
      case 'stars':
        return { kind, userId: id };
      case 'session':
        return { kind, sessionId: id };
      case 'workspace':
        return { kind, workspaceId: id };
      case 'client':
        return { kind, clientId: id };
    }
  }
  return { kind: 'row', id: scope };
}
