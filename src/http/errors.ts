// The errors of the HTTP client: a closed set of kinds, and the one place where undici's and
// Node's failures are put into words. Messages are short and name the limit or the cause; they
// never carry header values, request bodies, paths or query strings (an origin may appear).

import { FlowguardError } from '../errors/flowguard-error.js';

export type HttpErrorKind =
  | 'timeout'
  | 'connect'
  | 'private-address'
  | 'reset'
  | 'protocol'
  | 'too-large'
  | 'too-deep'
  | 'decode'
  | 'redirect-refused'
  | 'too-many-redirects'
  | 'aborted'
  | 'invalid-url'
  | 'rate-limited';

/** A failed exchange with an upstream (ERR008); `kind` says how it failed, for results and metrics. */
export class HttpError extends FlowguardError {
  readonly kind: HttpErrorKind;

  constructor(kind: HttpErrorKind, message: string) {
    super('ERR008', message);
    this.name = 'HttpError';
    this.kind = kind;
  }
}

/** Why the upstream guard held a request back, and when trying again can help. */
export interface Refusal {
  message: string;
  /** Whole seconds until a retry can succeed (at least 1). */
  retryAfterSeconds: number;
}

/** A request the upstream guard refused: nothing was sent. */
export class RefusedError extends HttpError {
  constructor(readonly refusal: Refusal) {
    super('rate-limited', refusal.message);
  }
}

export function timeoutError(totalTimeoutMs: number): HttpError {
  return new HttpError('timeout', `request timed out after ${totalTimeoutMs} ms (totalTimeoutMs)`);
}

export function abortedError(): HttpError {
  return new HttpError('aborted', 'request aborted by the caller');
}

/**
 * An undici or Node failure of an exchange with `origin` (the origin to name: the schema's, also
 * when the request went to an upstream override) as an HttpError.
 */
export function exchangeError(
  error: unknown,
  origin: string,
  limits: { connectTimeoutMs: number; totalTimeoutMs: number; maxHeaderBytes: number },
): HttpError {
  if (error instanceof HttpError) return error;
  const code = errorCode(error);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new HttpError(
        'timeout',
        `connecting to ${origin} timed out after ${limits.connectTimeoutMs} ms (connectTimeoutMs)`,
      );
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return timeoutError(limits.totalTimeoutMs);
    case 'UND_ERR_HEADERS_OVERFLOW':
      return new HttpError(
        'too-large',
        `response headers from ${origin} are larger than ${limits.maxHeaderBytes} bytes`,
      );
    case 'UND_ERR_SOCKET':
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return new HttpError('reset', `connection to ${origin} was reset during the exchange`);
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return new HttpError('reset', `response from ${origin} did not match its Content-Length`);
    case 'UND_ERR_DESTROYED':
    case 'UND_ERR_CLOSED':
      return new HttpError('aborted', 'the HTTP client is closed');
    case 'UND_ERR_INVALID_ARG':
    case 'UND_ERR_NOT_SUPPORTED':
      // A header name or value undici refuses to send (e.g. a line break set by a handler).
      // undici's message names the header, never its value.
      return new HttpError('invalid-url', `request cannot be sent: ${String((error as Error).message).slice(0, 120)}`);
    default:
      break;
  }
  // undici 7's parser error may carry no code at all: it is known by its name.
  if (code?.startsWith('HPE_') || isParserError(error)) return protocolError(error, origin);
  // DNS, refused, unreachable, TLS: the connection could not be established.
  if (code !== undefined) return new HttpError('connect', `cannot connect to ${origin} (${code})`);
  return new HttpError('connect', `request to ${origin} failed`);
}

/** What a parser error says about the reply: not HTTP at all, or HTTP that breaks the rules. */
function protocolError(error: unknown, origin: string): HttpError {
  const message = String((error as Error).message ?? '');
  if (/Expected HTTP\//.test(message))
    return new HttpError('protocol', `${origin} did not answer with HTTP (the reply is some other protocol)`);
  // llhttp's reason is a fixed phrase such as "Invalid header token", never reply text.
  const reason = /\(([A-Za-z ]{1,60})\)$/.exec(message)?.[1];
  return new HttpError('protocol', `malformed HTTP response from ${origin}${reason ? ` (${reason})` : ''}`);
}

function isParserError(error: unknown): boolean {
  for (
    let link = error, hops = 0;
    typeof link === 'object' && link !== null && hops < 4;
    link = (link as { cause?: unknown }).cause, hops++
  ) {
    if ((link as { name?: unknown }).name === 'HTTPParserError') return true;
  }
  return false;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error) return errorCode(cause);
  return undefined;
}
