// Content-Encoding undone (RFC 9110 §8.4; content-encoding.ts decodes): outside `sizeCap`, so the
// encoded bytes are capped as they arrive and the decoded ones by the same cap while inflating
// (a gzip bomb costs about the cap). An answer without Content-Encoding passes through as it
// comes; one with it is held until its end, decoded, and handed on as one chunk without its
// Content-Encoding and Content-Length headers. A coding that cannot be undone fails the exchange
// at its end (an empty body has nothing to undo, whatever it names).

import { decodeContent } from '../content-encoding.js';
import {
  headerValue,
  type Controller,
  type Headers,
  type Policy,
  type PolicyChain,
  type PolicyMaker,
} from './policy-chain.js';

export function contentDecoding(maxResponseBytes: number): PolicyMaker {
  // Most answers carry no Content-Encoding: one policy shared by every request looks at each
  // answer's start (and at nothing else), and only an encoded answer gets a Decoding of its own.
  const watch: Policy = {
    onResponseStart(controller, status, headers, chain) {
      if (status < 200 || headers['content-encoding'] === undefined) return true;
      const decoding = new Decoding(chain, maxResponseBytes);
      chain.replace(watch, decoding);
      return decoding.onResponseStart(controller, status, headers);
    },
  };
  return () => watch;
}

class Decoding implements Policy {
  /** The codings to undo; undefined while the answer passes through. */
  private coding: string | undefined = undefined;
  private chunks: Buffer[] | null = null;

  constructor(
    private readonly chain: PolicyChain,
    private readonly limit: number,
  ) {}

  onResponseStart(_controller: Controller, status: number, headers: Headers): boolean {
    this.coding = status >= 200 ? headerValue(headers['content-encoding']) : undefined;
    if (this.coding !== undefined) {
      delete headers['content-encoding'];
      delete headers['content-length'];
    }
    return true;
  }

  onResponseData(_controller: Controller, chunk: Buffer): boolean {
    if (this.coding === undefined) return true;
    (this.chunks ??= []).push(chunk);
    return false;
  }

  onResponseEnd(controller: Controller, trailers: Headers): boolean {
    if (this.coding === undefined) return true;
    let decoded: Buffer;
    try {
      decoded = decodeContent(Buffer.concat(this.chunks ?? []), this.coding, this.limit);
    } catch (error) {
      this.chain.fail(this, controller, error as Error);
      return false;
    }
    this.chunks = null;
    if (decoded.length > 0) this.chain.dataAfter(this, controller, decoded);
    this.chain.endAfter(this, controller, trailers);
    return false;
  }
}
