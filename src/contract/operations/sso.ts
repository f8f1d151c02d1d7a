import { z } from 'zod';
import { defineOperations } from '../operation.js';
import {
  samlLogoutPostBody,
  samlPostBody,
  samlRedirectQuery,
  ssoLoginOption,
  ssoLoginQuery,
  ssoProvider,
  ssoProviderCreate,
  ssoProviderParams,
  ssoProviderUpdate,
} from '../sso.js';

const tags = ['sso'];

/** SAML identity providers of a workspace (admins and owners; spec/platform.md, docs/decisions.md#integrations). */
export const ssoProviderOperations = defineOperations({
  listSsoProviders: {
    method: 'GET',
    path: '/sso-providers',
    summary: "The workspace's SAML identity providers (admins and owners)",
    tags,
    access: 'user',
    response: z.array(ssoProvider),
    errors: [401, 403],
  },
  createSsoProvider: {
    method: 'POST',
    path: '/sso-providers',
    summary: 'Add a SAML identity provider; the handle is fixed from then on (admins and owners)',
    tags,
    access: 'user',
    body: ssoProviderCreate,
    response: ssoProvider,
    status: 201,
    errors: [400, 401, 403, 409],
  },
  getSsoProvider: {
    method: 'GET',
    path: '/sso-providers/:provider',
    summary: 'A SAML identity provider with the service provider settings to give it (admins and owners)',
    tags,
    access: 'user',
    params: ssoProviderParams,
    response: ssoProvider,
    errors: [400, 401, 403, 404],
  },
  updateSsoProvider: {
    method: 'PATCH',
    path: '/sso-providers/:provider',
    summary: 'Change a SAML identity provider; the handle is not sent (admins and owners)',
    tags,
    access: 'user',
    params: ssoProviderParams,
    body: ssoProviderUpdate,
    response: ssoProvider,
    errors: [400, 401, 403, 404],
  },
  deleteSsoProvider: {
    method: 'DELETE',
    path: '/sso-providers/:provider',
    summary: 'Remove a SAML identity provider (admins and owners)',
    tags,
    access: 'user',
    params: ssoProviderParams,
    response: null,
    errors: [400, 401, 403, 404],
  },
});

/** The SAML service provider's endpoints, for browsers and identity providers (no token; the host names the workspace). */
export const samlOperations = defineOperations({
  getSsoLoginOption: {
    method: 'GET',
    path: '/sso/login-option',
    summary: "The workspace's default, enabled identity provider, for 'Log in with {name}' (or null)",
    tags,
    access: 'public',
    response: ssoLoginOption.nullable(),
    errors: [404],
  },
  getSamlMetadata: {
    method: 'GET',
    path: '/sso/:provider/metadata',
    summary: 'The service provider metadata to give the identity provider (XML)',
    tags,
    access: 'public',
    params: ssoProviderParams,
    response: z.string().describe('application/samlmetadata+xml'),
    produces: ['application/samlmetadata+xml'],
    errors: [400, 404],
  },
  startSamlLogin: {
    method: 'GET',
    path: '/sso/:provider/login',
    summary: "Sends the browser to the identity provider's login, to come back to `redirect`",
    tags,
    access: 'public',
    params: ssoProviderParams,
    query: ssoLoginQuery,
    response: null,
    status: 302,
    errors: [400, 403, 404],
  },
  consumeSamlResponse: {
    method: 'POST',
    path: '/sso/:provider/acs',
    summary:
      "The identity provider's signed response: checked (signature, audience, recipient, time, replay), then a " +
      'session and a redirect into the app',
    tags,
    access: 'public',
    params: ssoProviderParams,
    body: samlPostBody,
    consumes: ['application/x-www-form-urlencoded'],
    response: null,
    status: 303,
    errors: [400, 404],
  },
  samlLogout: {
    method: 'GET',
    path: '/sso/:provider/slo',
    summary: "Single logout: ends this browser's session (and at the identity provider), or answers its logout request",
    tags,
    access: 'public',
    params: ssoProviderParams,
    query: samlRedirectQuery,
    response: null,
    status: 303,
    errors: [400, 404],
  },
  samlLogoutPost: {
    method: 'POST',
    path: '/sso/:provider/slo',
    summary:
      "Single logout over HTTP-POST: the identity provider's signed logout request (its sessions end; the answer " +
      'is a signed LogoutResponse) or its answer to ours',
    tags,
    access: 'public',
    params: ssoProviderParams,
    body: samlLogoutPostBody,
    consumes: ['application/x-www-form-urlencoded'],
    response: null,
    status: 303,
    errors: [400, 404],
  },
});
