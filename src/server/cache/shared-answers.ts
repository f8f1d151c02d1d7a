/**
 * One answer shared by every caller who sees the same (cache/catalogue-cache.ts): its JSON cut where a field
 * differs per caller, and, for each cut, what decides it. A request gets the body with its own values in the cuts.
 */
import {
  canAdminTeam,
  canCreateServiceFor,
  canEditService,
  canSeeService,
  type Viewer,
  type Visibility,
} from '../../domain/catalogue.js';
import type { Made } from './answer-cache.js';

/**
 * Each team as answered, with its policy on who creates services: `can_create_services` follows it, and the answer
 * does not show it (services/catalogue/teams.ts notes it here as it makes the answer).
 */
export const membersCreateServicesOf = new WeakMap<object, boolean>();

/** A field that differs per caller: where it sits in the body, and what decides it. */
type Slot =
  | { kind: 'starred'; serviceId: string }
  | { kind: 'edit'; ownerTeamId: string }
  | { kind: 'team'; teamId: string; membersCreateServices: boolean };

/** What the serializer writes for each slot (the contract's key order), with the caller's values in it. */
const SLOTS =
  /"starred":(?:true|false)|"permissions":\{"edit":(?:true|false)\}|"is_admin":(?:true|false),"is_member":(?:true|false),"can_create_services":(?:true|false)/g;

const STARRED = [Buffer.from('"starred":false'), Buffer.from('"starred":true')];
const EDIT = [Buffer.from('"permissions":{"edit":false}'), Buffer.from('"permissions":{"edit":true}')];
const TEAM_RIGHTS = new Map<string, Buffer>();
function teamRights(admin: boolean, member: boolean, create: boolean): Buffer {
  const key = `${+admin}${+member}${+create}`;
  let bytes = TEAM_RIGHTS.get(key);
  if (!bytes) {
    bytes = Buffer.from(`"is_admin":${admin},"is_member":${member},"can_create_services":${create}`);
    TEAM_RIGHTS.set(key, bytes);
  }
  return bytes;
}

export interface SharedAnswer {
  headers: Readonly<Record<string, string>>;
  /** What it depends on (migration 032): the ids in it, the list it is a page of, its teams' members. */
  scopes: string[];
  bytes: number;
  /** A page's item count, and its last item's sort keys (a page of services: name, then handle). */
  count: number;
  last: { name: string; handle: string } | null;
  /** Whether it has a `starred` to fill, for which the caller's stars are needed. */
  needsStars: boolean;
  /** Whether this caller may be given it; a caller who may not gets what the read itself answers (a 404). */
  visibleTo(viewer: Viewer): boolean;
  /** The body with the caller's values. */
  bodyFor(viewer: Viewer, stars: ReadonlySet<string>): Buffer;
}

type Item = Record<string, unknown>;

/** Every string `id` in a value, at any depth: the rows an answer shows. */
function idsIn(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) idsIn(item, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'id' && typeof inner === 'string') out.add(inner);
      else if (typeof inner === 'object') idsIn(inner, out);
    }
  }
}

/** The slots of each item, in the order the serializer writes them. */
function slotsOf(items: readonly Item[]) {
  const starred: Slot[] = [];
  const edit: Slot[] = [];
  const team: Slot[] = [];
  for (const item of items) {
    const id = item.id as string;
    if ('starred' in item) {
      starred.push({ kind: 'starred', serviceId: id });
      edit.push({ kind: 'edit', ownerTeamId: (item.owner as { id: string }).id });
    }
    if ('is_admin' in item) {
      const membersCreateServices = membersCreateServicesOf.get(item);
      if (membersCreateServices === undefined) return null;
      team.push({ kind: 'team', teamId: id, membersCreateServices });
    }
  }
  return { starred, edit, team };
}

/**
 * The shared form of an answer made for one caller: `value` is what the read answered (the items of a page), and
 * `lists` the scopes of the list it is a page of (migration 032). Null when its per-caller fields cannot all be found: it is not shared then.
 */
export function sharedAnswer(made: Made, value: unknown, lists: readonly string[]): SharedAnswer | null {
  const items = (Array.isArray(value) ? value : [value]) as Item[];
  const queues = slotsOf(items);
  if (!queues) return null;
  const { body } = made;
  const segments: Buffer[] = [];
  const slots: Slot[] = [];
  // latin1: one character per byte, so the match offsets are byte offsets (the slots are ASCII).
  const text = body.toString('latin1');
  let from = 0;
  for (const match of text.matchAll(SLOTS)) {
    const queue = match[0][1] === 's' ? queues.starred : match[0][1] === 'p' ? queues.edit : queues.team;
    const slot = queue.shift();
    if (!slot) return null;
    segments.push(body.subarray(from, match.index));
    slots.push(slot);
    from = match.index + match[0].length;
  }
  if (queues.starred.length + queues.edit.length + queues.team.length > 0) return null;
  segments.push(body.subarray(from));

  const ids = new Set<string>();
  idsIn(value, ids);
  for (const list of lists) ids.add(list);
  // A team shows its first members and their count.
  for (const item of items) if ('member_count' in item) ids.add(`members:${item.id as string}`);
  const single = !Array.isArray(value) && 'visibility' in (value as Item) ? (value as Item) : null;
  const shown = single && {
    visibility: single.visibility as Visibility,
    ownerTeamId: (single.owner as { id: string }).id,
  };
  const lastItem = items.at(-1);
  return {
    count: items.length,
    last:
      lastItem && typeof lastItem.name === 'string' && typeof lastItem.handle === 'string'
        ? { name: lastItem.name, handle: lastItem.handle }
        : null,
    headers: made.headers ?? {},
    scopes: [...ids],
    bytes: body.length + 64 * slots.length,
    needsStars: slots.some((slot) => slot.kind === 'starred'),
    visibleTo: (viewer) => !shown || canSeeService(viewer, shown),
    bodyFor(viewer, stars) {
      if (slots.length === 0) return body;
      const parts: Buffer[] = [];
      slots.forEach((slot, i) => {
        parts.push(segments[i]!);
        if (slot.kind === 'starred') parts.push(STARRED[+stars.has(slot.serviceId)]!);
        else if (slot.kind === 'edit') parts.push(EDIT[+canEditService(viewer, slot.ownerTeamId)]!);
        else {
          const admin = canAdminTeam(viewer, slot.teamId);
          const member = admin || viewer.teams.has(slot.teamId);
          parts.push(teamRights(admin, member, canCreateServiceFor(viewer, slot.teamId, slot.membersCreateServices)));
        }
      });
      parts.push(segments[slots.length]!);
      return Buffer.concat(parts);
    },
  };
}
