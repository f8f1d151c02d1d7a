/**
 * SAML single sign-on (docs/decisions.md#integrations) with @node-saml/node-saml as the service provider: the admin's
 * providers, and login, ACS and single logout. A response must answer a request this workspace sent (InResponseTo, kept
 * in the database so any process can check it, and used once: a replay is refused), be signed by the provider's
 * certificate, for our audience and ACS, within its time window. An unknown email joins as a member.
 */
import { randomUUID, X509Certificate } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { SsoProvider } from '../../../contract/sso.js';
import { isAdminRole } from '../../../domain/roles.js';
import { handleFromText, HANDLE_MIN_LENGTH } from '../../../domain/validators.js';
import { workspaceOrigin } from '../../config.js';
import { isoNow, type ServerContext } from '../../context.js';
import { findUserByEmail, findUserByIdOrHandle, insertUser, newUserRow } from '../../db/repositories/users.js';
import {
  findUnrevokedSession,
  listLiveSamlSessions,
  revokeSession,
  revokeSessionsByIds,
} from '../../db/repositories/sessions.js';
import {
  clearOtherDefaults,
  deleteSamlRequest,
  deleteSamlRequestsBefore,
  deleteSsoProvider,
  findDefaultSsoProvider,
  findSamlRequest,
  findSsoProvider,
  insertSamlRequest,
  insertSsoProvider,
  listSsoProviders,
  updateSsoProvider,
} from '../../db/repositories/sso.js';
import type { SsoProviderRow, UserRow, WorkspaceRow } from '../../db/schema.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../errors.js';
import { startSession, type Caller } from './auth.js';
import { requireFreeSeats } from '../billing/billing.js';
import { addressingFault } from './saml-addressing.js';
import { hashPassword, randomToken, sha256 } from '../../crypto/secrets.js';
import { callersOf } from '../../cache/caller-cache.js';

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/** How long a login may take at the identity provider. */
const REQUEST_TTL_MS = 10 * 60_000;
const NOT_FOUND = 'SSO provider not found';

// ---- admin: the providers ----

function endpoints(ctx: ServerContext, workspace: WorkspaceRow, handle: string) {
  const base = `${workspaceOrigin(ctx.config, workspace.domain)}/api/sso/${handle}`;
  return { entityId: `${base}/metadata`, acs: `${base}/acs`, login: `${base}/login`, logout: `${base}/slo` };
}

/** `spCert`: the service provider's signing certificate (PEM), for the identity provider. */
function toSsoProvider(ctx: ServerContext, workspace: WorkspaceRow, row: SsoProviderRow, spCert: string): SsoProvider {
  const urls = endpoints(ctx, workspace, row.handle);
  return {
    handle: row.handle,
    name: row.name,
    is_default: row.is_default === 1,
    sso_enabled: row.sso_enabled === 1,
    slo_enabled: row.slo_enabled === 1,
    idp: {
      sso_url: row.idp_sso_url,
      slo_url: row.idp_slo_url,
      entity_id: row.idp_entity_id,
      has_x509: row.idp_x509 !== null,
    },
    sp: { acs_url: urls.acs, entity_id: urls.entityId, cert: spCert },
    thumbnail: null,
    login_url: urls.login,
    logout_url: urls.logout,
  };
}

function requireAdmin(caller: Caller): void {
  if (!isAdminRole(caller.user.role)) throw forbidden('Only workspace admins and owners can manage SSO providers');
}

/** A certificate as PEM, from PEM or bare base64; 400 when it is not one. */
export function certificatePem(text: string): string {
  const body = text
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim();
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw badRequest('The certificate could not be read', { 'idp.x509': ['Not an X.509 certificate'] });
  }
  return pem;
}

async function providerOf(ctx: ServerContext, workspace: WorkspaceRow, handle: string): Promise<SsoProviderRow> {
  const row = await findSsoProvider(ctx.database.db, workspace.id, handle);
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

export async function listProviders(ctx: ServerContext, caller: Caller): Promise<SsoProvider[]> {
  requireAdmin(caller);
  const rows = await listSsoProviders(ctx.database.db, caller.workspace.id);
  const { cert } = await ctx.samlSigning();
  return rows.map((row) => toSsoProvider(ctx, caller.workspace, row, cert));
}

export async function getProvider(ctx: ServerContext, caller: Caller, handle: string): Promise<SsoProvider> {
  requireAdmin(caller);
  const row = await providerOf(ctx, caller.workspace, handle);
  return toSsoProvider(ctx, caller.workspace, row, (await ctx.samlSigning()).cert);
}

interface ProviderInput {
  name?: string | undefined;
  is_default?: boolean | undefined;
  sso_enabled?: boolean | undefined;
  slo_enabled?: boolean | undefined;
  idp?:
    | {
        sso_url?: string | null | undefined;
        slo_url?: string | null | undefined;
        entity_id?: string | null | undefined;
        x509?: string | null | undefined;
      }
    | undefined;
}

/** The columns an input changes; the certificate checked. */
function columnsOf(input: ProviderInput) {
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  const columns = {
    name: input.name,
    is_default: flag(input.is_default),
    sso_enabled: flag(input.sso_enabled),
    slo_enabled: flag(input.slo_enabled),
    idp_sso_url: input.idp?.sso_url,
    idp_slo_url: input.idp?.slo_url,
    idp_entity_id: input.idp?.entity_id,
    idp_x509:
      input.idp?.x509 === undefined || input.idp.x509 === null ? input.idp?.x509 : certificatePem(input.idp.x509),
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

export async function createProvider(
  ctx: ServerContext,
  caller: Caller,
  input: ProviderInput & { handle: string; name: string },
): Promise<SsoProvider> {
  requireAdmin(caller);
  const { db } = ctx.database;
  const taken = () =>
    conflict('The handle has already been taken.', { handle: ['The handle has already been taken.'] });
  if (await findSsoProvider(db, caller.workspace.id, input.handle)) throw taken();
  const now = isoNow(ctx);
  const row: SsoProviderRow = {
    id: randomUUID(),
    workspace_id: caller.workspace.id,
    handle: input.handle,
    name: input.name,
    is_default: 0,
    sso_enabled: 0,
    slo_enabled: 0,
    idp_sso_url: null,
    idp_slo_url: null,
    idp_entity_id: null,
    idp_x509: null,
    created_at: now,
    updated_at: now,
    ...columnsOf(input),
  };
  try {
    await db.transaction().execute(async (trx) => {
      await insertSsoProvider(trx, row);
      // One default a workspace: making one the default takes it from the others.
      if (row.is_default) await clearOtherDefaults(trx, row.workspace_id, row.id);
    });
  } catch (error) {
    if (!(error instanceof HttpError) && (await findSsoProvider(db, caller.workspace.id, input.handle))) throw taken();
    throw error;
  }
  return toSsoProvider(ctx, caller.workspace, row, (await ctx.samlSigning()).cert);
}

export async function updateProvider(
  ctx: ServerContext,
  caller: Caller,
  handle: string,
  input: ProviderInput,
): Promise<SsoProvider> {
  requireAdmin(caller);
  const row = await providerOf(ctx, caller.workspace, handle);
  const change: Partial<SsoProviderRow> = { ...columnsOf(input), updated_at: isoNow(ctx) };
  await ctx.database.db.transaction().execute(async (trx) => {
    await updateSsoProvider(trx, row.id, change);
    if (change.is_default === 1) await clearOtherDefaults(trx, row.workspace_id, row.id);
  });
  const { cert } = await ctx.samlSigning();
  return toSsoProvider(ctx, caller.workspace, { ...row, ...change } as SsoProviderRow, cert);
}

export async function deleteProvider(ctx: ServerContext, caller: Caller, handle: string): Promise<void> {
  requireAdmin(caller);
  const row = await providerOf(ctx, caller.workspace, handle);
  await deleteSsoProvider(ctx.database.db, row.id);
}

/** The login screen's 'Log in with {name}': the default provider, when enabled and complete. */
export async function loginOption(ctx: ServerContext, workspace: WorkspaceRow) {
  const row = await findDefaultSsoProvider(ctx.database.db, workspace.id);
  if (!row?.idp_sso_url || !row.idp_x509) return null;
  return { name: row.name, login_url: endpoints(ctx, workspace, row.handle).login };
}

// ---- the service provider ----

/** node-saml's request cache in the database: any process can check a response, and only once. */
function requestCache(ctx: ServerContext, workspaceId: string): CacheProvider {
  const { db } = ctx.database;
  return {
    async saveAsync(key, value) {
      const createdAt = ctx.now().getTime();
      await insertSamlRequest(db, {
        id: sha256(`${workspaceId}:${key}`),
        workspace_id: workspaceId,
        value,
        created_at: new Date(createdAt).toISOString(),
      });
      // Old requests nobody answered go now and then.
      await deleteSamlRequestsBefore(db, new Date(createdAt - REQUEST_TTL_MS).toISOString());
      return { value, createdAt };
    },
    async getAsync(key) {
      const since = new Date(ctx.now().getTime() - REQUEST_TTL_MS).toISOString();
      return findSamlRequest(db, sha256(`${workspaceId}:${key}`), since);
    },
    async removeAsync(key) {
      if (key === null) return null;
      return (await deleteSamlRequest(db, sha256(`${workspaceId}:${key}`))) ? key : null;
    },
  };
}

/** Our requests (AuthnRequest, LogoutRequest) and logout responses are signed with the SP key (crypto/saml-signing.ts). */
async function serviceProvider(ctx: ServerContext, workspace: WorkspaceRow, row: SsoProviderRow): Promise<SAML> {
  if (!row.idp_x509 || !row.idp_sso_url) throw badRequest('This SSO provider is not set up yet');
  const urls = endpoints(ctx, workspace, row.handle);
  const signing = await ctx.samlSigning();
  return new SAML({
    callbackUrl: urls.acs,
    entryPoint: row.idp_sso_url,
    logoutUrl: row.idp_slo_url ?? row.idp_sso_url,
    logoutCallbackUrl: urls.logout,
    issuer: urls.entityId,
    audience: urls.entityId,
    idpCert: row.idp_x509,
    ...(row.idp_entity_id ? { idpIssuer: row.idp_entity_id } : {}),
    identifierFormat: EMAIL_FORMAT,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestCache(ctx, workspace.id),
    acceptedClockSkewMs: 5000,
    privateKey: signing.privateKey,
    publicCert: signing.cert,
    signatureAlgorithm: 'sha256',
  });
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/**
 * The SP metadata: the signing certificate (KeyDescriptor use="signing", AuthnRequestsSigned), the ACS, and the
 * single logout endpoint with both bindings it takes (node-saml names only HTTP-POST; GET takes HTTP-Redirect).
 */
export async function metadataOf(ctx: ServerContext, workspace: WorkspaceRow, handle: string): Promise<string> {
  const row = await providerOf(ctx, workspace, handle);
  const urls = endpoints(ctx, workspace, row.handle);
  const signing = await ctx.samlSigning();
  const xml = new SAML({
    callbackUrl: urls.acs,
    logoutCallbackUrl: urls.logout,
    issuer: urls.entityId,
    idpCert: row.idp_x509 ?? 'unset',
    identifierFormat: EMAIL_FORMAT,
    wantAssertionsSigned: true,
    privateKey: signing.privateKey,
    publicCert: signing.cert,
    signatureAlgorithm: 'sha256',
  }).generateServiceProviderMetadata(null, signing.cert);
  return xml.replace(
    '<SingleLogoutService ',
    `<SingleLogoutService Binding="${REDIRECT_BINDING}" Location="${urls.logout}"/>\n    <SingleLogoutService `,
  );
}

async function enabledProvider(ctx: ServerContext, workspace: WorkspaceRow, handle: string) {
  const row = await providerOf(ctx, workspace, handle);
  if (!row.sso_enabled) throw forbidden('This SSO provider is disabled');
  return row;
}

/** Only a path of this app: never a redirect to somewhere else. */
export function safeReturnPath(value: string | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') ? value : '/';
}

export async function loginUrl(ctx: ServerContext, workspace: WorkspaceRow, handle: string, redirect?: string) {
  const row = await enabledProvider(ctx, workspace, handle);
  return (await serviceProvider(ctx, workspace, row)).getAuthorizeUrlAsync(safeReturnPath(redirect), undefined, {});
}

/** The email a profile asserts: an email attribute, else an email-shaped NameID. */
function emailOf(profile: Profile): string | null {
  for (const key of ['email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress']) {
    const value = profile[key];
    if (typeof value === 'string' && value.includes('@')) return value.toLowerCase();
  }
  return profile.nameID.includes('@') ? profile.nameID.toLowerCase() : null;
}

function nameOf(profile: Profile, email: string): string {
  for (const key of ['displayName', 'name', 'cn']) {
    const value = profile[key];
    if (typeof value === 'string' && value.trim()) return value.trim().slice(0, 100);
  }
  return email.split('@')[0]!;
}

/** A member for an email this workspace does not know yet (JIT), with a free handle from its local part. */
async function joinAsMember(ctx: ServerContext, workspace: WorkspaceRow, email: string, name: string) {
  const { db } = ctx.database;
  const base = handleFromText(email.split('@')[0]!, 50).padEnd(HANDLE_MIN_LENGTH, '0');
  let handle = base;
  for (let n = 2; await findUserByIdOrHandle(db, workspace.id, handle); n++) handle = `${base}-${n}`;
  const row = newUserRow({
    workspace_id: workspace.id,
    handle,
    name,
    email,
    // Signs in through the identity provider; a password can be set through a reset.
    password_hash: await hashPassword(randomToken()),
    role: 'member',
  });
  await db.transaction().execute(async (trx) => {
    await requireFreeSeats(ctx, trx, workspace.id, 1);
    await insertUser(trx, row);
  });
  return (await findUserByEmail(db, workspace.id, email))!;
}

/**
 * Checks the identity provider's POST and opens a session: the cookie token and where to go. Throws a 400 whose
 * message says why a response was refused.
 */
export async function consumeResponse(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  handle: string,
  body: { SAMLResponse: string; RelayState?: string | undefined },
): Promise<{ sessionToken: string; user: UserRow; redirect: string }> {
  const row = await enabledProvider(ctx, workspace, handle);
  const sp = await serviceProvider(ctx, workspace, row);
  let profile: Profile | null;
  try {
    ({ profile } = await sp.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse }));
  } catch (error) {
    throw badRequest(`The SAML response was refused: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!profile) throw badRequest('The SAML response was refused: no assertion');
  const fault = addressingFault(
    profile.getSamlResponseXml?.() ?? '',
    profile.getAssertionXml?.() ?? '',
    endpoints(ctx, workspace, row.handle).acs,
  );
  if (fault) throw badRequest(`The SAML response was refused: ${fault}`);
  const email = emailOf(profile);
  if (!email) throw badRequest('The SAML response was refused: it names no email');
  const user =
    (await findUserByEmail(ctx.database.db, workspace.id, email)) ??
    (await joinAsMember(ctx, workspace, email, nameOf(profile, email)));
  const sessionToken = await startSession(ctx, workspace, user, {
    providerId: row.id,
    nameId: profile.nameID,
    sessionIndex: profile.sessionIndex ?? null,
  });
  return { sessionToken, user, redirect: safeReturnPath(body.RelayState) };
}

/** How old a logout request may be; with the ids seen kept as long, a replayed one is refused. */
const LOGOUT_REQUEST_TTL_MS = REQUEST_TTL_MS;

function refused(error: unknown): HttpError {
  return badRequest(`The SAML logout was refused: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * The identity provider logs a person out (its LogoutRequest, signature already checked): their sessions of this
 * provider end (only the session it names, when it names one), and the answer is a signed LogoutResponse to the
 * provider's logout URL. A request is taken once and only while fresh: a replayed one changes nothing.
 */
async function answerLogoutRequest(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  row: SsoProviderRow,
  sp: SAML,
  profile: Profile,
  requestXml: string,
  relayState: string | undefined,
): Promise<string> {
  const issued = Date.parse(/<(?:\w+:)?LogoutRequest\b[^>]*?\sIssueInstant="([^"]+)"/.exec(requestXml)?.[1] ?? '');
  const nowMs = ctx.now().getTime();
  if (!Number.isFinite(issued) || issued < nowMs - LOGOUT_REQUEST_TTL_MS || issued > nowMs + 60_000)
    throw refused('the request is not fresh');
  const id = typeof profile.ID === 'string' ? profile.ID : '';
  try {
    await requestCache(ctx, workspace.id).saveAsync(`logout-request:${row.id}:${id}`, String(issued));
  } catch {
    throw refused('the request was already answered');
  }
  const { db } = ctx.database;
  const now = isoNow(ctx);
  const sessions = await listLiveSamlSessions(db, workspace.id, row.id, profile.nameID, profile.sessionIndex);
  await revokeSessionsByIds(
    db,
    sessions.map((session) => session.id),
    now,
  );
  for (const { id: sessionId } of sessions) callersOf(ctx).forgetSession(sessionId);
  return sp.getLogoutResponseUrlAsync(profile, relayState ?? '', {}, true);
}

/** The session of this browser's cookie ends; with single logout on, the browser goes on to the provider. */
async function endBrowserSession(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  row: SsoProviderRow,
  sessionToken: string | undefined,
): Promise<string> {
  const { db } = ctx.database;
  const session = sessionToken ? await findUnrevokedSession(db, workspace.id, sha256(sessionToken)) : undefined;
  if (!session) return '/login';
  await revokeSession(db, session.id, isoNow(ctx));
  callersOf(ctx).forgetSession(session.id);
  if (!row.slo_enabled || !row.idp_slo_url || session.sso_provider_id !== row.id || !session.saml_name_id)
    return '/login';
  return (await serviceProvider(ctx, workspace, row)).getLogoutUrlAsync(
    {
      issuer: row.idp_entity_id ?? '',
      nameID: session.saml_name_id,
      nameIDFormat: EMAIL_FORMAT,
      ...(session.saml_session_index ? { sessionIndex: session.saml_session_index } : {}),
    },
    '/login',
    {},
  );
}

/**
 * Single logout, HTTP-Redirect binding (GET): the browser's session ends (and, when the provider does single
 * logout, at the provider too); or the provider's signed LogoutRequest ends the sessions it names; or the
 * provider's signed LogoutResponse closes our own request. Answers where to send the browser. An unsigned or
 * badly signed message is refused (400) and changes nothing.
 */
export async function logoutUrl(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  handle: string,
  sessionToken: string | undefined,
  query: Record<string, string | undefined>,
  originalQuery: string,
): Promise<string> {
  const row = await providerOf(ctx, workspace, handle);
  if (!query.SAMLRequest && !query.SAMLResponse) return endBrowserSession(ctx, workspace, row, sessionToken);
  const sp = await serviceProvider(ctx, workspace, row);
  // node-saml takes a redirect message with no Signature as valid: anyone could log anyone out.
  if (!query.Signature || !query.SigAlg) throw refused('the message is not signed');
  let result: { profile: Profile | null; loggedOut: boolean };
  let xml: string;
  try {
    result = await sp.validateRedirectAsync(query, originalQuery);
    xml = inflateRawSync(Buffer.from(query.SAMLRequest ?? query.SAMLResponse!, 'base64')).toString('utf8');
  } catch (error) {
    throw refused(error);
  }
  if (query.SAMLResponse || !result.profile) return '/login';
  return answerLogoutRequest(ctx, workspace, row, sp, result.profile, xml, query.RelayState);
}

/** Single logout, HTTP-POST binding: the provider's signed LogoutRequest, or its LogoutResponse to ours. */
export async function logoutPost(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  handle: string,
  body: { SAMLRequest?: string | undefined; SAMLResponse?: string | undefined; RelayState?: string | undefined },
): Promise<string> {
  const row = await providerOf(ctx, workspace, handle);
  if (Boolean(body.SAMLRequest) === Boolean(body.SAMLResponse))
    throw badRequest('Send either a SAMLRequest or a SAMLResponse');
  const sp = await serviceProvider(ctx, workspace, row);
  if (body.SAMLResponse) {
    try {
      await sp.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse });
    } catch (error) {
      throw refused(error);
    }
    return '/login';
  }
  let profile: Profile | null;
  try {
    ({ profile } = await sp.validatePostRequestAsync({ SAMLRequest: body.SAMLRequest! }));
  } catch (error) {
    throw refused(error);
  }
  if (!profile) throw refused('no logout request');
  const xml = Buffer.from(body.SAMLRequest!, 'base64').toString('utf8');
  return answerLogoutRequest(ctx, workspace, row, sp, profile, xml, body.RelayState);
}
