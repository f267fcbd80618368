// Where the Streamable HTTP endpoint listens and which browser origins it accepts. Kept apart
// from the transport so that the command line reads them without loading the HTTP stack.

import { FlowguardError } from '../errors/flowguard-error.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3000;
export const DEFAULT_PATH = '/mcp';
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = Object.freeze(['http://localhost:*', 'http://127.0.0.1:*']);

export interface OriginPattern {
  protocol: string;
  hostname: string;
  /** undefined: any port. */
  port: string | undefined;
}

/** `http://localhost:*` (any port) or an exact origin such as `https://app.example.com`; `flag` names where a wrong one was given. */
export function parseOriginPattern(pattern: string, flag?: string): OriginPattern {
  const where = flag === undefined ? '' : `${flag}: `;
  const anyPort = pattern.endsWith(':*');
  let url: URL;
  try {
    url = new URL(anyPort ? pattern.slice(0, -2) : pattern);
  } catch {
    throw new OriginPatternError(`${where}allowed origin '${pattern}' must be scheme://host[:port] or scheme://host:*`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new OriginPatternError(
      `${where}allowed origin '${pattern}' must be an origin, without path, query or credentials`,
    );
  }
  return { protocol: url.protocol, hostname: url.hostname, port: anyPort ? undefined : url.port };
}

/** An origin pattern (`--allow-origin`) that is no origin (ERR005). */
class OriginPatternError extends FlowguardError {
  constructor(message: string) {
    super('ERR005', message);
  }
}

export function originMatches(pattern: OriginPattern, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` and other opaque origins are never allowed
  }
  if (url.origin === 'null') return false;
  return (
    url.protocol === pattern.protocol &&
    url.hostname === pattern.hostname &&
    (pattern.port === undefined || url.port === pattern.port)
  );
}
