// The authorization server's metadata, found from its issuer URL as MCP clients find it: RFC 8414
// (`/.well-known/oauth-authorization-server`, inserted before the issuer's path), then OpenID
// Connect discovery (`/.well-known/openid-configuration`, after it and inserted before it). The
// metadata must name the same issuer (RFC 8414 §3.3): a document that names another is not this
// server's, and its keys are not trusted.

import { AccessFetchError, type BoundedFetch } from './fetch.js';

export interface IssuerMetadata {
  issuer: string;
  jwksUri?: string;
  introspectionEndpoint?: string;
}

export async function discoverIssuer(issuer: string, fetcher: BoundedFetch): Promise<IssuerMetadata> {
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let metadata: Record<string, unknown>;
    try {
      metadata = await fetcher.json(url);
    } catch (error) {
      if (!(error instanceof AccessFetchError)) throw error;
      failures.push(error.message);
      continue;
    }
    if (typeof metadata.issuer !== 'string' || trimSlash(metadata.issuer) !== trimSlash(issuer)) {
      throw new AccessFetchError(
        `${url} names the issuer ${JSON.stringify(metadata.issuer)?.slice(0, 200)}, not ${issuer}: its keys are not trusted (RFC 8414 §3.3)`,
      );
    }
    return {
      issuer: metadata.issuer,
      jwksUri: typeof metadata.jwks_uri === 'string' ? metadata.jwks_uri : undefined,
      introspectionEndpoint:
        typeof metadata.introspection_endpoint === 'string' ? metadata.introspection_endpoint : undefined,
    };
  }
  throw new AccessFetchError(`no metadata found for the issuer ${issuer}: ${failures.join('; ')}`);
}

/** Where the metadata of `issuer` may be, in the order MCP clients try them. */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = trimSlash(url.pathname);
  if (path === '')
    return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

function trimSlash(text: string): string {
  return text.replace(/\/+$/, '');
}
