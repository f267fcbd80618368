// The OAuth 2.1 resource server of the MCP authorization spec, in front of the HTTP endpoint: its
// Protected Resource Metadata (RFC 9728), the `WWW-Authenticate` challenges that point clients to
// it, and the admission of a bearer token (tokens.ts), its scopes and its identity (identities.ts).
//
// - Metadata: at `/.well-known/oauth-protected-resource` and at the path-scoped form the spec's
//   clients try first (`/.well-known/oauth-protected-resource/mcp`, and below it for the group
//   endpoints), naming this resource, its authorization server and the scopes it needs.
// - 401 `Bearer resource_metadata="…"` without a token, with `error="invalid_token"` for one that
//   does not verify; 403 `error="insufficient_scope", scope="…"` for a valid token lacking a
//   required scope, and 403 for a caller no identity of the config names.

import type { Caller } from './caller.js';
import type { Identities } from './identities.js';
import type { TokenVerifier } from './tokens.js';

const METADATA_PATH = '/.well-known/oauth-protected-resource';

/** A refusal's `detail`, where set, is for the operator's log only (tokens.ts TokenVerdict). */
export type Admission =
  { ok: true; caller: Caller } | { ok: false; status: 401 | 403; challenge: string; message: string; detail?: string };

export class ResourceServer {
  readonly metadataUrl: string;
  private readonly resourcePath: string;

  constructor(
    private readonly verifier: TokenVerifier,
    private readonly issuer: string,
    private readonly requiredScopes: readonly string[],
  ) {
    const resource = new URL(verifier.resource);
    this.resourcePath = resource.pathname.replace(/\/+$/, '');
    this.metadataUrl = `${resource.origin}${METADATA_PATH}${this.resourcePath}`;
  }

  get resource(): string {
    return this.verifier.resource;
  }

  /** Whether `pathname` is where the metadata is served: the root form, or path-scoped for this resource or an endpoint below it. */
  servesMetadataAt(pathname: string): boolean {
    if (pathname === METADATA_PATH) return true;
    const scoped = pathname.slice(METADATA_PATH.length);
    return (
      pathname.startsWith(`${METADATA_PATH}/`) &&
      (scoped === this.resourcePath || scoped.startsWith(`${this.resourcePath}/`))
    );
  }

  /** The Protected Resource Metadata document (RFC 9728 §2). */
  metadata(): Record<string, unknown> {
    return {
      resource: this.resource,
      authorization_servers: [this.issuer],
      ...(this.requiredScopes.length > 0 ? { scopes_supported: [...this.requiredScopes] } : {}),
      bearer_methods_supported: ['header'],
      resource_name: 'flowguard',
    };
  }

  /** The 401 for a request without a token. */
  missing(): Admission & { ok: false } {
    return {
      ok: false,
      status: 401,
      challenge: this.challenge({}),
      message:
        'Unauthorized: this server needs an OAuth access token (Authorization: Bearer <token>); its metadata is at ' +
        this.metadataUrl,
    };
  }

  /** A bearer token verified, its scopes checked, its identity resolved. */
  async admit(token: string, identities: Identities): Promise<Admission> {
    const verdict = await this.verifier.verify(token);
    if (!verdict.ok)
      return {
        ok: false,
        status: 401,
        challenge: this.challenge({ error: 'invalid_token', description: verdict.why }),
        message: `Unauthorized: ${verdict.why}`,
        ...(verdict.detail === undefined ? {} : { detail: verdict.detail }),
      };
    const lacking = this.requiredScopes.filter((scope) => !verdict.caller.scopes.includes(scope));
    if (lacking.length > 0) {
      const description = `the token lacks the scope ${lacking.join(', ')}`;
      return {
        ok: false,
        status: 403,
        challenge: this.challenge({ error: 'insufficient_scope', description, scope: this.requiredScopes.join(' ') }),
        message: `Forbidden: ${description}`,
      };
    }
    return admitIdentity(verdict.caller, identities, this);
  }

  challenge(parts: { error?: string; description?: string; scope?: string }): string {
    const params = [`resource_metadata="${this.metadataUrl}"`];
    if (parts.error) params.push(`error="${parts.error}"`);
    if (parts.description) params.push(`error_description="${quoted(parts.description)}"`);
    if (parts.scope) params.push(`scope="${quoted(parts.scope)}"`);
    return `Bearer ${params.join(', ')}`;
  }
}

/** The caller with its identity, or a 403 when identities are configured and none names it. */
export function admitIdentity(caller: Caller, identities: Identities, server?: ResourceServer): Admission {
  const resolved = identities.resolve(caller);
  if (resolved) return { ok: true, caller: resolved };
  const who = `subject ${caller.subject ?? '(none)'}, client ${caller.client ?? '(none)'}`;
  const description = `no identity of this server's config names this caller (${who})`;
  return {
    ok: false,
    status: 403,
    challenge: server
      ? server.challenge({ error: 'insufficient_scope', description })
      : `Bearer realm="flowguard", error="insufficient_scope"`,
    message: `Forbidden: ${description}`,
  };
}

/**
 * A quoted-string of RFC 9110 in printable ASCII: no quote or backslash, no control characters,
 * and nothing past `~`, which node refuses in a header (a subject in Chinese turned the 403 into a
 * 500); the message in the body keeps the text as it is.
 */
function quoted(text: string): string {
  return text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/gu, ' ').slice(0, 300);
}
