import { z } from 'zod';
import { HANDLE_PATTERN, HANDLE_RULE } from '../domain/validators.js';
import { httpUrl, line, text } from './common.js';

/** Spec (platform.md section 3): an SSO provider as the admin pages show it; the server computes `sp` and the URLs. */
export const ssoProvider = z
  .object({
    handle: z.string(),
    name: z.string(),
    is_default: z.boolean(),
    sso_enabled: z.boolean(),
    slo_enabled: z.boolean(),
    idp: z.object({
      sso_url: z.string().nullable(),
      slo_url: z.string().nullable(),
      entity_id: z.string().nullable(),
      has_x509: z.boolean(),
    }),
    sp: z.object({ acs_url: z.string(), entity_id: z.string(), cert: z.string().nullable() }),
    thumbnail: z.string().nullable(),
    login_url: z.string(),
    logout_url: z.string(),
  })
  .meta({ id: 'SsoProvider' });
export type SsoProvider = z.infer<typeof ssoProvider>;

const idpFields = z.strictObject({
  sso_url: httpUrl().max(2000).nullable().optional(),
  slo_url: httpUrl().max(2000).nullable().optional(),
  entity_id: line().max(2000).nullable().optional(),
  /** The IdP's signing certificate, PEM or bare base64 (spec: merged into idp as x509). */
  x509: text().max(20_000).nullable().optional(),
});

const providerFields = {
  name: line().trim().min(1).max(100),
  is_default: z.boolean().optional(),
  sso_enabled: z.boolean().optional(),
  slo_enabled: z.boolean().optional(),
  idp: idpFields.optional(),
};

export const ssoProviderCreate = z.strictObject({
  handle: line().min(1).max(64).regex(HANDLE_PATTERN, HANDLE_RULE),
  ...providerFields,
});
/** Spec: on update the handle is not sent. */
export const ssoProviderUpdate = z.strictObject({ ...providerFields, name: providerFields.name.optional() });
export const ssoProviderParams = z.strictObject({ provider: line().min(1).max(64) });

/** What the login screen offers: the workspace's default, enabled provider. */
export const ssoLoginOption = z.object({ name: z.string(), login_url: z.string() }).meta({ id: 'SsoLoginOption' });

/** The identity provider's POST to the ACS: exactly these fields, form-encoded. */
export const samlPostBody = z.strictObject({
  SAMLResponse: text().min(1).max(1_000_000),
  RelayState: text().max(2000).optional(),
});
/** Single logout over HTTP-POST: the identity provider's LogoutRequest, or its LogoutResponse to ours. */
export const samlLogoutPostBody = z.strictObject({
  SAMLRequest: text().min(1).max(1_000_000).optional(),
  SAMLResponse: text().min(1).max(1_000_000).optional(),
  RelayState: text().max(2000).optional(),
});
export const samlRedirectQuery = z.object({
  SAMLRequest: text().max(100_000).optional(),
  SAMLResponse: text().max(100_000).optional(),
  RelayState: text().max(2000).optional(),
  SigAlg: text().max(500).optional(),
  Signature: text().max(5000).optional(),
});
export const ssoLoginQuery = z.strictObject({ redirect: line().max(2000).optional() });
