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
    const sessionIndex = `session-${Math.random().toString(36).slice(2)}`;
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
          template.replace('{AuthnStatement}', statements).replace('{AttributeStatement}', ''),
          values,
        );
        return { id: values.ID!, context: filled };
      },
    );
    return context;
  }
}
