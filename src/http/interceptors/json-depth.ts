// The nesting bound on JSON answers (decision R13), outermost, on the bytes as the caller reads
// them (Content-Encoding undone): counted chunk by chunk as they arrive (json-depth.ts), so an
// answer nested too deep fails at the byte that passes the bound, before anything parses it.
// Judged: an answer with a JSON content type, and one without a usable content type whose first
// byte past whitespace opens an array or object (what decoding would sniff as JSON that nests).

import { namesJson } from '../decode.js';
import { HttpError } from '../errors.js';
import { JsonDepth } from '../json-depth.js';
import { headerValue, PolicyHandler, type Controller, type Handler, type Headers, type Interceptor } from './policy-handler.js';

/** Not known yet whether the answer is JSON: the content type said nothing, and no significant byte has come. */
const SNIFFING = 1;

export function jsonDepth(maxJsonDepth: number): Interceptor {
  return (dispatch) => (options, handler) => dispatch(options, new JsonDepthHandler(handler, maxJsonDepth));
}

class JsonDepthHandler extends PolicyHandler {
  /** The scan of a JSON answer; null for an answer that is not; SNIFFING until that is known. */
  private scan: JsonDepth | null | typeof SNIFFING = null;

  constructor(
    next: Handler,
    private readonly max: number,
  ) {
    super(next);
  }

  override onResponseStart(controller: Controller, status: number, headers: Headers, statusMessage?: string): void {
    if (status >= 200) {
      const json = namesJson(headerValue(headers['content-type']));
      this.scan = json === undefined ? SNIFFING : json ? new JsonDepth(this.max) : null;
    }
    super.onResponseStart(controller, status, headers, statusMessage);
  }

  override onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.scan === SNIFFING) this.scan = this.sniff(chunk);
    if (this.scan !== null && this.scan !== SNIFFING && this.scan.deeperAfter(chunk)) {
      return this.fail(controller, new HttpError('too-deep', `JSON answer nested more than ${this.max} levels deep (maxJsonDepth)`));
    }
    super.onResponseData(controller, chunk);
  }

  /** What the first significant byte says: JSON that nests, or not; still sniffing when the chunk is all whitespace. */
  private sniff(chunk: Buffer): JsonDepth | null | typeof SNIFFING {
    for (const byte of chunk) {
      if (!LEADING.has(byte)) return byte === 0x5b || byte === 0x7b ? new JsonDepth(this.max) : null;
    }
    return SNIFFING;
  }
}

/** Whitespace and the bytes of a UTF-8 byte order mark, skipped before the first significant byte. */
const LEADING = new Set([0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf]);
