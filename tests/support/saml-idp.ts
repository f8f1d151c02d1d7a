import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import samlify from 'samlify';

/** A key and a self-signed certificate made with openssl (Node has no X.509 writer). */
export function selfSignedCertificate(subject = '/CN=idp.test'): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-idp-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '2',
        '-subj',
        subject,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

samlify.setSchemaValidator({ validate: async () => 'skipped' });

export interface Assertion {
  email: string;
  name?: string;
  /** Changes to the response's values: `Audience`, `ConditionsNotOnOrAfter`, `SubjectRecipient`... */
  overrides?: Record<string, string>;
  /** Edits the response's template before it is filled and signed (to leave out an attribute, say). */
  shape?: (template: string) => string;
  /** The session at the provider (AuthnStatement's SessionIndex); a new one when left out. */
  sessionIndex?: string;
}

const REDIRECT = 'redirect';

/** A redirect URL's query as samlify reads it: the values, and the signed part in its original encoding. */
function redirectRequest(location: string) {
  const raw = location.slice(location.indexOf('?') + 1);
  const query = Object.fromEntries(new URL(location).searchParams);
  const octetString = raw
    .split('&')
    .filter((part) => !part.startsWith('Signature='))
    .join('&');
  return { query, octetString };
}

/**
 * An identity provider in the test's process (samlify, test-only): reads the SP's AuthnRequest from the login
 * redirect and answers with a signed response, as a real IdP's POST to the ACS would carry it.
 */
export class TestIdentityProvider {
  readonly entityId = 'https://idp.test/metadata';
  readonly ssoUrl: string;
  readonly sloUrl: string;
  readonly signing = selfSignedCertificate();
  private readonly idp: ReturnType<typeof samlify.IdentityProvider>;

  /** `ssoUrl` and `sloUrl` default to idp.test's; an HTTP face (saml-idp-http.ts) gives its own. */
  constructor(urls: { ssoUrl?: string; sloUrl?: string } = {}) {
    this.ssoUrl = urls.ssoUrl ?? 'https://idp.test/sso';
    this.sloUrl = urls.sloUrl ?? 'https://idp.test/slo';
    this.idp = samlify.IdentityProvider({
      entityID: this.entityId,
      signingCert: this.signing.cert,
      privateKey: this.signing.key,
      nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
      // Checks the signature of the SP's AuthnRequests (parseLoginRequest) and LogoutResponses.
      wantAuthnRequestsSigned: true,
      wantLogoutResponseSigned: true,
      singleSignOnService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: this.ssoUrl }],
      singleLogoutService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: this.sloUrl }],
    });
  }

  /** The AuthnRequest's id, from the URL the SP's login redirected to. */
  requestIdOf(location: string): string {
    const request = new URL(location).searchParams.get('SAMLRequest')!;
    const xml = inflateRawSync(Buffer.from(request, 'base64')).toString('utf8');
    return /ID="([^"]+)"/.exec(xml)![1]!;
  }

  /** A signed SAMLResponse (base64) answering `requestId`, for the SP described by `spMetadata`. */
  async respond(spMetadata: string, requestId: string, assertion: Assertion): Promise<string> {
    const sp = samlify.ServiceProvider({ metadata: spMetadata });
    const sessionIndex = assertion.sessionIndex ?? `session-${Math.random().toString(36).slice(2)}`;
    const { context } = await this.idp.createLoginResponse(
      sp,
      { extract: { request: { id: requestId } } },
      'post',
      { email: assertion.email },
      (template: string) => {
        const now = new Date();
        const later = new Date(now.getTime() + 5 * 60_000).toISOString();
        const acs = /AssertionConsumerService[^>]*Location="([^"]+)"/.exec(spMetadata)![1]!;
        const audience = /entityID="([^"]+)"/.exec(spMetadata)![1]!;
        const values: Record<string, string> = {
          ID: `_${Math.random().toString(36).slice(2)}`,
          AssertionID: `_${Math.random().toString(36).slice(2)}`,
          Destination: acs,
          Audience: audience,
          SubjectRecipient: acs,
          Issuer: this.entityId,
          IssueInstant: now.toISOString(),
          StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
          ConditionsNotBefore: new Date(now.getTime() - 1000).toISOString(),
          ConditionsNotOnOrAfter: later,
          SubjectConfirmationDataNotOnOrAfter: later,
          NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
          NameID: assertion.email,
          InResponseTo: requestId,
          ...assertion.overrides,
        };
        // Spliced in before the tags are filled: samlify escapes the text of tag values.
        const statements =
          `<saml:AuthnStatement AuthnInstant="${values.IssueInstant}" SessionIndex="${sessionIndex}"><saml:AuthnContext>` +
          '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>' +
          '</saml:AuthnContext></saml:AuthnStatement>' +
          `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${assertion.name ?? 'Sam Sso'}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`;
        const filled = samlify.SamlLib.replaceTagsByValue(
          (assertion.shape?.(template) ?? template)
            .replace('{AuthnStatement}', statements)
            .replace('{AttributeStatement}', ''),
          values,
        );
        return { id: values.ID!, context: filled };
      },
    );
    return context;
  }

  /** The SP as this provider knows it: from its metadata, signing what it sends and checked on what it answers. */
  private serviceProvider(spMetadata: string) {
    return samlify.ServiceProvider({ metadata: spMetadata, wantLogoutRequestSigned: true });
  }

  /**
   * Checks the AuthnRequest of the SP's login redirect as a provider that wants requests signed: its signature
   * (against the certificate of the SP metadata) over the query as sent. Rejects when it does not hold.
   */
  async parseLoginRedirect(spMetadata: string, location: string) {
    const { extract } = await this.idp.parseLoginRequest(
      this.serviceProvider(spMetadata),
      REDIRECT,
      redirectRequest(location),
    );
    return extract as { request: { id: string; issuer: string } };
  }

  /**
   * The provider's own LogoutRequest for a person's session at the SP, signed: a URL on the SP's HTTP-Redirect
   * logout endpoint, or the fields of an HTTP-POST form to its HTTP-POST one.
   */
  logoutRequest(
    spMetadata: string,
    user: { nameID: string; sessionIndex?: string },
    binding: 'redirect',
    relayState?: string,
  ): { id: string; url: string };
  logoutRequest(
    spMetadata: string,
    user: { nameID: string; sessionIndex?: string },
    binding: 'post',
    relayState?: string,
  ): { id: string; url: string; form: { SAMLRequest: string; RelayState?: string } };
  logoutRequest(
    spMetadata: string,
    user: { nameID: string; sessionIndex?: string },
    binding: 'redirect' | 'post',
    relayState?: string,
  ) {
    const sp = this.serviceProvider(spMetadata);
    const request = this.idp.createLogoutRequest(
      sp,
      binding,
      { logoutNameID: user.nameID, sessionIndex: user.sessionIndex },
      relayState ? { relayState } : {},
    ) as { id: string; context: string; entityEndpoint?: string };
    if (binding === REDIRECT) return { id: request.id, url: request.context };
    return {
      id: request.id,
      url: request.entityEndpoint!,
      form: { SAMLRequest: request.context, ...(relayState ? { RelayState: relayState } : {}) },
    };
  }

  /** Checks the SP's LogoutResponse (HTTP-Redirect, signed): its status, issuer and what it answers. */
  async parseLogoutResponse(spMetadata: string, location: string) {
    const { extract } = await this.idp.parseLogoutResponse(
      this.serviceProvider(spMetadata),
      REDIRECT,
      redirectRequest(location),
    );
    return extract as { response: { inResponseTo: string; destination: string }; issuer: string };
  }
}
