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
import { scopeOf } from './scopes.js';

/**
 * Each team as answered, with its policy on who creates services: `can_create_services` follows it, and the answer
 * does not show it (services/catalogue/teams.ts notes it here as it makes the answer).
 */
export const membersCreateServicesOf = new WeakMap<object, boolean>();

/** A field that differs per caller, and what decides it. */
type Slot =
  | { kind: 'starred'; serviceId: string }
  | { kind: 'edit'; ownerTeamId: string }
  | { kind: 'is_admin' | 'is_member'; teamId: string }
  | { kind: 'can_create_services'; teamId: string; membersCreateServices: boolean };

type Item = Record<string, unknown>;

/**
 * The per-caller fields of an item: how to find one, which slot decides it, and the item with it flipped. Where the
 * fields sit in the JSON is found by serializing the item once as it is and once with every field flipped: the bytes
 * where the two differ are where each `true` or `false` starts, and all else must be the same. Which field is which
 * is learned once per serializer (fieldOrderOf). No pattern of the JSON is assumed, only that the serializer writes
 * the same item the same way.
 */
interface Field {
  slotOf(item: Item): Slot | null | undefined;
  flip(item: Item): Item;
}

const permissionsOf = (item: Item) => item.permissions as { edit?: unknown } | undefined;

const FIELDS: readonly Field[] = [
  {
    slotOf: (item) =>
      typeof item.starred === 'boolean' ? { kind: 'starred', serviceId: item.id as string } : undefined,
    flip: (item) => ({ ...item, starred: !item.starred }),
  },
  {
    slotOf: (item) =>
      typeof permissionsOf(item)?.edit === 'boolean'
        ? { kind: 'edit', ownerTeamId: (item.owner as { id: string }).id }
        : undefined,
    flip: (item) => ({ ...item, permissions: { ...permissionsOf(item), edit: !permissionsOf(item)!.edit } }),
  },
  ...(['is_admin', 'is_member'] as const).map((kind): Field => ({
    slotOf: (item) => (typeof item[kind] === 'boolean' ? { kind, teamId: item.id as string } : undefined),
    flip: (item) => ({ ...item, [kind]: !item[kind] }),
  })),
  {
    slotOf: (item) => {
      if (typeof item.can_create_services !== 'boolean') return undefined;
      const membersCreateServices = membersCreateServicesOf.get(item);
      // The team's policy was not noted: the field cannot be decided per caller.
      if (membersCreateServices === undefined) return null;
      return { kind: 'can_create_services', teamId: item.id as string, membersCreateServices };
    },
    flip: (item) => ({ ...item, can_create_services: !item.can_create_services }),
  },
];

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');

/**
 * A body cut at its per-caller fields: the parts between them (one more than the slots), the slot of each cut, and
 * the value it held as made.
 */
interface Cut {
  parts: Buffer[];
  slots: Slot[];
  values: boolean[];
}

/** Where every `true` or `false` of `json` that `flipped` swaps starts, in order; null if they differ otherwise. */
function swapsBetween(json: Buffer, flipped: Buffer): number[] | null {
  const at: number[] = [];
  let i = 0;
  let j = 0;
  while (i < json.length && j < flipped.length) {
    if (json[i] === flipped[j]) {
      i++;
      j++;
      continue;
    }
    const wasTrue = json.subarray(i, i + 4).equals(TRUE) && flipped.subarray(j, j + 5).equals(FALSE);
    const wasFalse = json.subarray(i, i + 5).equals(FALSE) && flipped.subarray(j, j + 4).equals(TRUE);
    if (!wasTrue && !wasFalse) return null;
    at.push(i);
    i += wasTrue ? 4 : 5;
    j += wasTrue ? 5 : 4;
  }
  return i === json.length && j === flipped.length ? at : null;
}

/**
 * The order in which the serializer writes an item's per-caller fields, learned once per serializer and set of
 * fields (one serialization per field, of the first item that has them): after that an item is cut with a single
 * extra serialization, every field flipped at once.
 */
const fieldOrders = new WeakMap<object, Map<string, readonly number[] | null>>();

/** Field orders learned, by the fields an item has. */
type Orders = Map<string, readonly number[] | null>;

function fieldOrderOf(
  item: Item,
  present: readonly number[],
  json: Buffer,
  serializeItem: (item: Item) => Buffer,
  orders: Orders,
): readonly number[] | null {
  const signature = present.join(',');
  const known = orders.get(signature);
  if (known !== undefined) return known;
  const positions: { field: number; at: number }[] = [];
  for (const field of present) {
    const swaps = swapsBetween(json, serializeItem(FIELDS[field]!.flip(item)));
    if (!swaps || swaps.length !== 1) {
      orders.set(signature, null);
      return null;
    }
    positions.push({ field, at: swaps[0]! });
  }
  const order = positions.sort((a, b) => a.at - b.at).map(({ field }) => field);
  orders.set(signature, order);
  return order;
}

/** An item's JSON cut at its per-caller fields. */
function cutItem(item: Item, serializeItem: (item: Item) => Buffer, orders: Orders): Cut | null {
  const json = serializeItem(item);
  const present: number[] = [];
  const slotOf: Slot[] = [];
  let flipped = item;
  for (const [index, field] of FIELDS.entries()) {
    const slot = field.slotOf(item);
    if (slot === undefined) continue;
    if (slot === null) return null;
    present.push(index);
    slotOf[index] = slot;
    flipped = field.flip(flipped);
  }
  if (present.length === 0) return { parts: [json], slots: [], values: [] };
  const order = fieldOrderOf(item, present, json, serializeItem, orders);
  const swaps = order && swapsBetween(json, serializeItem(flipped));
  if (!order || !swaps || swaps.length !== order.length) return null;
  const parts: Buffer[] = [];
  const values: boolean[] = [];
  let from = 0;
  for (const at of swaps) {
    parts.push(json.subarray(from, at));
    const value = json[at] === TRUE[0];
    values.push(value);
    from = at + (value ? TRUE.length : FALSE.length);
  }
  parts.push(json.subarray(from));
  return { parts, slots: order.map((field) => slotOf[field]!), values };
}

/** The body cut at its items' per-caller fields, or null when an item cannot be cut. */
function cutBody(value: unknown, serializeItem: (item: Item) => Buffer, orders: Orders): Cut | null {
  const paged = Array.isArray(value);
  const items = (paged ? value : [value]) as Item[];
  const parts: Buffer[] = [Buffer.from(paged ? '[' : '')];
  const slots: Slot[] = [];
  const values: boolean[] = [];
  for (const [i, item] of items.entries()) {
    const cut = cutItem(item, serializeItem, orders);
    if (!cut) return null;
    // The item's first part continues the part before it.
    const [first, ...rest] = cut.parts;
    parts[parts.length - 1] = Buffer.concat([parts.at(-1)!, Buffer.from(i > 0 ? ',' : ''), first!]);
    parts.push(...rest);
    slots.push(...cut.slots);
    values.push(...cut.values);
  }
  if (paged) parts[parts.length - 1] = Buffer.concat([parts.at(-1)!, Buffer.from(']')]);
  return { parts, slots, values };
}

const BOOLEANS = [FALSE, TRUE];

/** What a slot holds for a caller. */
function slotValue(slot: Slot, viewer: Viewer, stars: ReadonlySet<string>): boolean {
  switch (slot.kind) {
    case 'starred':
      return stars.has(slot.serviceId);
    case 'edit':
      return canEditService(viewer, slot.ownerTeamId);
    case 'is_admin':
      return canAdminTeam(viewer, slot.teamId);
    case 'is_member':
      return canAdminTeam(viewer, slot.teamId) || viewer.teams.has(slot.teamId);
    case 'can_create_services':
      return canCreateServiceFor(viewer, slot.teamId, slot.membersCreateServices);
  }
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

/**
 * The shared form of an answer made for one caller: `value` is what the read answered (the items of a page), and
 * `lists` the scopes of the list it is a page of (migration 032). Null when its per-caller fields cannot all be found: it is not shared then.
 */
export function sharedAnswer(made: Made, value: unknown, lists: readonly string[]): SharedAnswer | null {
  const { body, serializeItem } = made;
  if (!serializeItem) return null;
  // Learned once per operation (its serializer's order stays); without one, learned afresh for this answer.
  let orders: Orders | undefined = made.itemShape ? fieldOrders.get(made.itemShape) : undefined;
  if (!orders) {
    orders = new Map();
    if (made.itemShape) fieldOrders.set(made.itemShape, orders);
  }
  const cut = cutBody(value, serializeItem, orders);
  if (!cut) return null;
  const { parts, slots, values } = cut;
  const items = (Array.isArray(value) ? value : [value]) as Item[];
  const fill = (valueOf: (slot: Slot, i: number) => boolean): Buffer => {
    const out: Buffer[] = [];
    slots.forEach((slot, i) => out.push(parts[i]!, BOOLEANS[+valueOf(slot, i)]!));
    out.push(parts[slots.length]!);
    return Buffer.concat(out);
  };
  // Cut right: filled with the values it was made with, it is the very body the read made.
  if (!fill((_slot, i) => values[i]!).equals(body)) return null;

  const ids = new Set<string>();
  idsIn(value, ids);
  for (const list of lists) ids.add(list);
  // A team shows its first members and their count.
  for (const item of items)
    if ('member_count' in item) ids.add(scopeOf({ kind: 'members', teamId: item.id as string }));
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
    bodyFor: (viewer, stars) => (slots.length === 0 ? body : fill((slot) => slotValue(slot, viewer, stars))),
  };
}
