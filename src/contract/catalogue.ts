import { z } from 'zod';
import { HEALTHS, SERVICES_PAGE_SIZE, STAGES, TEAM_ROLES, VISIBILITIES } from '../domain/catalogue.js';
import { httpUrl, line, pageQuery, text } from './common.js';

/** Teams, services, stars and mutes (spec/catalogue.md sections 3 and 7, spec/platform.md section 7). */

export const health = z.enum(HEALTHS);
export const visibility = z.enum(VISIBILITIES);
export const stage = z.enum(STAGES);
export const teamRole = z.enum(TEAM_ROLES);

const handle = line().min(1).max(64);
const name = line().trim().min(1).max(120);
const description = text().max(2000).nullable();

/** A short reference to a user, team or service (avatars, owner tags, autocomplete). */
export const profileRef = z
  .object({ id: z.string(), handle: z.string(), name: z.string(), thumbnail_url: z.string().nullable() })
  .meta({ id: 'ProfileRef' });
export type ProfileRef = z.infer<typeof profileRef>;

/** On a service or team a catalogue source manages (docs/decisions.md#catalogue-as-code): where to change it. */
export const managedBy = z
  .object({
    source: z.string(),
    source_id: z.string(),
    path: z.string(),
    line: z.number().int(),
    settings: z
      .array(z.enum(['health_check_url', 'slo', 'slack_channel']))
      .describe("The service's settings its file's annotations decide: read-only like its fields"),
  })
  .meta({ id: 'ManagedBy' });
export type ManagedBy = z.infer<typeof managedBy>;

export const team = z
  .object({
    id: z.string(),
    handle: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    parent: profileRef.nullable(),
    /** The viewer's rights: team admin (or workspace admin/owner), team member. */
    is_admin: z.boolean(),
    is_member: z.boolean(),
    /** Whether the viewer may create services for the team (its admins; its members too by the team's policy). */
    can_create_services: z.boolean(),
    /** The first members, for avatar groups (at most 4), and how many there are. */
    members: z.array(z.object({ id: z.string(), name: z.string(), thumbnail_url: z.string().nullable() })),
    member_count: z.number().int(),
    /**
     * Set when a catalogue source's files decide its name, description and parent
     * (docs/decisions.md#catalogue-as-code).
     */
    managed_by: managedBy.nullable(),
  })
  .meta({ id: 'Team' });
export type Team = z.infer<typeof team>;

export const teamCreate = z.strictObject({ name, handle });
export const teamUpdate = z.strictObject({ name: name.optional(), description: description.optional() });

/**
 * Team policies (docs/decisions.md#open-decisions): a new service's visibility, and whether members (not only admins)
 * create services.
 */
export const teamPolicies = z
  .object({ default_visibility: visibility, members_create_services: z.boolean() })
  .meta({ id: 'TeamPolicies' });
export type TeamPolicies = z.infer<typeof teamPolicies>;
export const teamPoliciesUpdate = z.strictObject({
  default_visibility: visibility.optional(),
  members_create_services: z.boolean().optional(),
});

export const member = z
  .object({
    user: z.object({
      id: z.string(),
      handle: z.string(),
      name: z.string(),
      thumbnail_url: z.string().nullable(),
      description: z.string().nullable(),
    }),
    role: teamRole,
  })
  .meta({ id: 'TeamMember' });
export type Member = z.infer<typeof member>;

export const memberAdd = z.strictObject({
  user: z.strictObject({ id: line().min(1).max(64) }),
  role: teamRole.optional(),
});
export const memberUpdate = z.strictObject({ role: teamRole });

export const link = z.strictObject({
  name: line().trim().min(1).max(120),
  url: httpUrl().max(2000),
});

export const service = z
  .object({
    id: z.string(),
    handle: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    links: z.array(z.object({ name: z.string(), url: z.string() })),
    visibility,
    stage,
    health,
    created_at: z.string(),
    updated_at: z.string(),
    starred_count: z.number().int(),
    /** Whether the viewer starred it. */
    starred: z.boolean(),
    owner: profileRef,
    permissions: z.object({ edit: z.boolean() }),
    /**
     * Set when a catalogue source's files decide its fields, owner, stage and dependencies
     * (docs/decisions.md#catalogue-as-code).
     */
    managed_by: managedBy.nullable(),
  })
  .meta({ id: 'Service' });
export type Service = z.infer<typeof service>;

export const serviceCreate = z.strictObject({ name, handle });
export const serviceUpdate = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  links: z.array(link).max(20).optional(),
});
export const reparent = z.strictObject({ owner: z.strictObject({ id: line().min(1).max(64) }) });
export const changeHealth = z.strictObject({ health });
export const changeVisibility = z.strictObject({ visibility });
export const changeStage = z.strictObject({ stage });

export const starredItem = z.object({ id: z.string(), profile: profileRef }).meta({ id: 'StarredItem' });
export type StarredItem = z.infer<typeof starredItem>;
export const watchedService = z
  .object({ service: z.object({ id: z.string(), handle: z.string(), name: z.string() }), muted: z.boolean() })
  .meta({ id: 'WatchedService' });
export type WatchedService = z.infer<typeof watchedService>;

export const profileType = z.enum(['service', 'team', 'user']);
export const mutedItem = z
  .object({
    profile: z.object({
      id: z.string(),
      type: profileType,
      handle: z.string(),
      name: z.string(),
      description: z.string().nullable(),
    }),
    activity: z.boolean(),
    notifications: z.boolean(),
  })
  .meta({ id: 'MutedItem' });
export type MutedItem = z.infer<typeof mutedItem>;
/** Spec: both default true; a PUT without a body (Fastify reads it as null) mutes everything. */
export const muteBody = z
  .strictObject({
    activity: z.boolean().default(true),
    notifications: z.boolean().default(true),
  })
  .nullable()
  .transform((body) => body ?? { activity: true, notifications: true });
/** PATCH changes only the flags it names (a new mute starts from both true). */
export const mutePatch = z.strictObject({ activity: z.boolean().optional(), notifications: z.boolean().optional() });

/** Spec: the services list pages by 36. */
export const servicePageQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.unwrap().default(SERVICES_PAGE_SIZE),
});

/**
 * docs/api.md#conventions: writes the app queues offline carry an Idempotency-Key; star and mute are naturally
 * idempotent, so the key is accepted and needs no bookkeeping. Loose: the other headers pass through untouched.
 */
export const idempotencyHeaders = z.looseObject({
  'idempotency-key': line().max(200).optional().describe('Replay key of an offline write; accepted, not needed'),
});

export const autocompleteQuery = z.strictObject({ q: line().max(100).default('') });

export const teamParams = z.strictObject({ team: handle });
export const teamHandleParams = z.strictObject({ handle });
export const teamMemberParams = z.strictObject({ team: handle, user: handle });
export const serviceParams = z.strictObject({ service: handle });
export const starParams = z.strictObject({ username: handle, service: handle });
export const muteParams = z.strictObject({ username: handle, profile: handle });
