// The resource server as `serve` prepares it before anything loads: the issuer (`--oauth-issuer`
// over `oauth.issuer`), its metadata found and checked, the key set and the introspection
// endpoint settled, the client secret read from the environment. A setting that cannot work stops
// the start with a message naming it, not the first request. The resource URL may wait for the
// listening server: by default it is the URL `/mcp` is served at.

import { AccessFetchError, BoundedFetch } from './fetch.js';
import { discoverIssuer } from './issuer.js';
import { ResourceServer } from './resource.js';
import type { OAuthSettings } from './settings.js';
import { FlowguardError } from '../errors/flowguard-error.js';

/** An OAuth setting that cannot be used; the message names it and says what to do. */
export class OAuthSetupError extends FlowguardError {
  constructor(message: string) {
    super('ERR011', message);
  }
}

export interface OAuthPrepared {
  issuer: string;
  /** The resource URL given (`--resource`, `oauth.resource`); else the served URL is. */
  resource?: string;
  /** The resource server for this resource URL. */
  serverFor(resource: string): ResourceServer;
}

export async function prepareOAuth(
  settings: OAuthSettings,
  flags: { issuer?: string; resource?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<OAuthPrepared | undefined> {
  const issuer = flags.issuer ?? settings.issuer;
  const resource = flags.resource ?? settings.resource;
  if (issuer === undefined) {
    if (settings.jwksUrl || settings.introspection || flags.resource)
      throw new OAuthSetupError(
        'OAuth needs its issuer: start with --oauth-issuer <url>, or set oauth.issuer in .flowmcp/config.json',
      );
    return undefined;
  }
  for (const [name, url] of [
    ['--oauth-issuer', issuer],
    ['--resource', resource],
  ] as const) {
    if (url !== undefined && !/^https?:\/\//.test(url))
      throw new OAuthSetupError(`${name} must be an http:// or https:// URL, not '${url.slice(0, 200)}'`);
  }
  if (resource !== undefined && new URL(resource).hash !== '')
    throw new OAuthSetupError('--resource cannot have a fragment (RFC 8707)');
  // Every URL the operator gave may be fetched, whatever its address; the rest only as fetch.ts allows.
  const fetcher = new BoundedFetch(
    [issuer, settings.jwksUrl, settings.introspection?.url].filter((url): url is string => url !== undefined),
  );
  let jwksUri = settings.jwksUrl;
  let introspectionUrl = settings.introspection?.url;
  if (jwksUri === undefined || (settings.introspection && introspectionUrl === undefined)) {
    try {
      const metadata = await discoverIssuer(issuer, fetcher);
      jwksUri ??= metadata.jwksUri;
      introspectionUrl ??= metadata.introspectionEndpoint;
    } catch (error) {
      if (error instanceof AccessFetchError)
        throw new OAuthSetupError(`the OAuth issuer's metadata could not be read: ${error.message}`);
      throw error;
    }
  }
  if (jwksUri === undefined && !settings.introspection)
    throw new OAuthSetupError(
      `the issuer ${issuer} names no jwks_uri: set oauth.jwksUrl, or oauth.introspection for opaque tokens`,
    );
  for (const url of [jwksUri, introspectionUrl]) {
    const refused = url === undefined ? undefined : fetcher.refusal(url);
    if (refused)
      throw new OAuthSetupError(
        `the issuer's metadata names ${url}, which is not fetched: ${refused}; name it in oauth.jwksUrl or oauth.introspection.url to trust it`,
      );
  }
  let introspection: { url: string; clientId: string; clientSecret: string } | undefined;
  if (settings.introspection) {
    if (introspectionUrl === undefined)
      throw new OAuthSetupError(`the issuer ${issuer} names no introspection_endpoint: set oauth.introspection.url`);
    const clientSecret = env[settings.introspection.clientSecretEnv];
    if (!clientSecret)
      throw new OAuthSetupError(
        `oauth.introspection.clientSecretEnv names ${settings.introspection.clientSecretEnv}, which is not set in the environment`,
      );
    introspection = { url: introspectionUrl, clientId: settings.introspection.clientId, clientSecret };
  }
  // jose, which verifies tokens, loads only here: it is about 40 ms of every `serve`'s start otherwise.
  const { TokenVerifier } = await import('./tokens.js');
  return {
    issuer,
    resource,
    serverFor: (servedAt) =>
      new ResourceServer(
        new TokenVerifier({ issuer, resource: servedAt, jwksUri, introspection, settings }, fetcher),
        issuer,
        settings.requiredScopes ?? [],
      ),
  };
}
