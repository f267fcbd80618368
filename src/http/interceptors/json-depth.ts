// The nesting bound on JSON answers (decision R13), on the bytes as the caller reads them
// (outside contentDecoding, so Content-Encoding is undone): counted chunk by chunk as they
// arrive (json-depth.ts), so an answer nested too deep fails at the byte that passes the bound,
// before anything parses it. Judged: an answer with a JSON content type, and one without a usable
// content type whose first byte past whitespace opens an array or object (what decoding would
// sniff as JSON that nests). Each level takes a byte, so nothing is looked at, not even the
// content type, until the answer is longer than the bound: most answers pass at no cost.

import { namesJson } from '../decode.js';
import { HttpError } from '../errors.js';
import { JsonDepth } from '../json-depth.js';
import {
  headerValue,
  type Controller,
  type Headers,
  type Policy,
  type PolicyChain,
  type PolicyMaker,
} from './policy-chain.js';

export function jsonDepth(maxJsonDepth: number): PolicyMaker {
  return (chain) => new JsonDepthPolicy(chain, maxJsonDepth);
}

/** Not decided yet: the answer is no longer than the bound, or no significant byte has come. */
const UNDECIDED = 0;
/** Not JSON that nests: passed on unread. */
const NOT_JSON = 1;

class JsonDepthPolicy implements Policy {
  private contentType: string | undefined = undefined;
  /** The scan of a JSON answer, once the answer is known to be one that nests. */
  private scan: JsonDepth | typeof UNDECIDED | typeof NOT_JSON = UNDECIDED;
  /** The chunks handed on before the answer outgrew the bound (read once it does). */
  private early: Buffer[] | null = null;
  private read = 0;

  constructor(
    private readonly chain: PolicyChain,
    private readonly max: number,
  ) {}

  onResponseStart(_controller: Controller, status: number, headers: Headers): boolean {
    if (status >= 200) this.contentType = headerValue(headers['content-type']);
    return true;
  }

  onResponseData(controller: Controller, chunk: Buffer): boolean {
    if (this.scan === UNDECIDED) {
      this.read += chunk.length;
      if (this.read <= this.max) (this.early ??= []).push(chunk);
      else if (this.decide(this.early === null ? [chunk] : [...this.early, chunk])) return this.tooDeep(controller);
    } else if (this.scan !== NOT_JSON && this.scan.deeperAfter(chunk)) return this.tooDeep(controller);
    return true;
  }

  /** The answer outgrew the bound with `chunks`: whether it is JSON that nests past it already. */
  private decide(chunks: readonly Buffer[]): boolean {
    this.early = null;
    const json = namesJson(this.contentType);
    if (json === false || (json === undefined && !opensNesting(chunks))) {
      this.scan = NOT_JSON;
      return false;
    }
    const scan = new JsonDepth(this.max);
    this.scan = scan;
    return chunks.some((chunk) => scan.deeperAfter(chunk));
  }

  /** Refuses the exchange; false, as the hook that found it returns. */
  private tooDeep(controller: Controller): false {
    this.chain.fail(
      this,
      controller,
      new HttpError('too-deep', `JSON answer nested more than ${this.max} levels deep (maxJsonDepth)`),
    );
    return false;
  }
}

/** Whether the first byte past whitespace (and a UTF-8 byte order mark) opens an array or object. */
function opensNesting(chunks: readonly Buffer[]): boolean {
  for (const chunk of chunks) {
    for (const byte of chunk) {
      if (
        byte !== 0x20 &&
        byte !== 0x09 &&
        byte !== 0x0a &&
        byte !== 0x0d &&
        byte !== 0xef &&
        byte !== 0xbb &&
        byte !== 0xbf
      )
        return byte === 0x5b || byte === 0x7b;
    }
  }
  return false;
}
