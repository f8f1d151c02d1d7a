import { z } from 'zod';
import { line, text } from './common.js';
import { ROLES } from '../domain/roles.js';

/** Workspace (spec/platform.md section 3). */
export const workspaceStatus = z.enum(['active', 'inactive', 'suspended']);
export const workspace = z
  .object({
    id: z.string(),
    name: z.string(),
    domain: z.string(),
    status: workspaceStatus,
    login: z.string().nullable(),
  })
  .meta({ id: 'Workspace' });
export type Workspace = z.infer<typeof workspace>;

export const role = z.enum(ROLES);

export const user = z
  .object({
    id: z.string(),
    handle: z.string(),
    name: z.string(),
    email: z.string(),
    bio: z.string().nullable(),
    profile: z.string().nullable(),
    description: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    last_login: z.string().nullable(),
    role,
    super_admin: z.boolean(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof user>;

const password = line().min(1).max(200);
const email = line().trim().min(1).max(254);
const workspaceLabel = line().min(1).max(63);

export const sessionCreate = z.strictObject({ workspace: workspaceLabel, login: email, password });
export const sessionCreated = z.object({ workspace: z.string(), handle: z.string() });
export const sessionDelete = z.strictObject({ workspace: workspaceLabel.optional() });

export const sessionTokenRequest = z.strictObject({ grant_type: z.literal('session'), workspace: workspaceLabel });
/**
 * OAuth 2.0 client credentials (JSON or form-encoded; the id and secret may come as HTTP Basic instead). `scope`
 * (space-separated) narrows the token to some of the client's scopes; the workspace is the host's.
 */
export const clientTokenRequest = z.strictObject({
  grant_type: z.literal('client_credentials'),
  client_id: line().min(1).max(200).optional(),
  client_secret: line().min(1).max(200).optional(),
  scope: line().max(2000).optional(),
  workspace: workspaceLabel.optional(),
});
export const tokenRequest = z.discriminatedUnion('grant_type', [sessionTokenRequest, clientTokenRequest]);
export const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  /** Client tokens: the scopes granted, space-separated. */
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;

export const betaCheck = z.strictObject({ beta_key: line().min(1).max(64), email });
export const betaChecked = z.object({ beta_key: z.string(), email: z.string() });

export const registerWorkspace = z.strictObject({
  beta_key: line().min(1).max(64),
  owner: z.strictObject({
    email,
    name: line().trim().min(1).max(120),
    handle: line().min(1).max(64),
    password,
  }),
  workspace: z.strictObject({
    name: line().trim().min(1).max(120),
    domain: line().min(1).max(63),
  }),
});
export const workspaceRegistered = z.object({ domain: z.string(), workspace });

export const forgotPassword = z.strictObject({ workspace: workspaceLabel, email });
export const resetPassword = z.strictObject({ key: line().min(1).max(200), password });

export const invite = z.object({ id: z.string(), email: z.string(), last_sent: z.string() }).meta({ id: 'Invite' });
export type Invite = z.infer<typeof invite>;
export const inviteCreate = z.strictObject({ email });

export const joinWorkspace = z.strictObject({
  workspace: workspaceLabel,
  invite: z.strictObject({ id: line().min(1).max(64), code: line().min(1).max(200) }),
  user: z.strictObject({
    name: line().trim().min(1).max(120),
    handle: line().min(1).max(64),
    password,
  }),
});

export const userUpdate = z.strictObject({
  name: line().trim().min(1).max(120).optional(),
  bio: text().max(2000).nullable().optional(),
  profile: line().max(500).nullable().optional(),
  description: text().max(2000).nullable().optional(),
});

export const roleChange = z.strictObject({ role });

export const usernameParams = z.strictObject({ username: line().min(1).max(64) });
export const userIdParams = z.strictObject({ userId: line().min(1).max(64) });
export const inviteIdParams = z.strictObject({ inviteId: line().min(1).max(64) });
export const assetParams = z.strictObject({ assetId: line().min(1).max(64) });
