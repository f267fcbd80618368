// Content-Encoding undone (RFC 9110 §8.4; content-encoding.ts decodes): outside `sizeCap`, so the
// encoded bytes are capped as they arrive and the decoded ones by the same cap while inflating
// (a gzip bomb costs about the cap). An answer without Content-Encoding passes through as it
// comes; one with it is held until its end, decoded, and handed on as one chunk without its
// Content-Encoding and Content-Length headers. A coding that cannot be undone fails the exchange
// at its end (an empty body has nothing to undo, whatever it names).

import { decodeContent } from '../content-encoding.js';
import {
  headerValue,
  PolicyHandler,
  type Controller,
  type Handler,
  type Headers,
  type Interceptor,
} from './policy-handler.js';

export function contentDecoding(maxResponseBytes: number): Interceptor {
  return (dispatch) => (options, handler) => dispatch(options, new DecodingHandler(handler, maxResponseBytes));
}

class DecodingHandler extends PolicyHandler {
  /** The codings to undo; undefined while the answer passes through. */
  private coding: string | undefined;
  private chunks: Buffer[] | null = null;

  constructor(
    next: Handler,
    private readonly limit: number,
  ) {
    super(next);
  }

  override onResponseStart(controller: Controller, status: number, headers: Headers, statusMessage?: string): void {
    this.coding = status >= 200 ? headerValue(headers['content-encoding']) : undefined;
    if (this.coding !== undefined) {
      delete headers['content-encoding'];
      delete headers['content-length'];
    }
    super.onResponseStart(controller, status, headers, statusMessage);
  }

  override onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.coding === undefined) super.onResponseData(controller, chunk);
    else (this.chunks ??= []).push(chunk);
  }

  override onResponseEnd(controller: Controller, trailers: Headers): void {
    if (this.coding === undefined || this.failed) return super.onResponseEnd(controller, trailers);
    let decoded: Buffer;
    try {
      decoded = decodeContent(Buffer.concat(this.chunks ?? []), this.coding, this.limit);
    } catch (error) {
      return this.fail(controller, error as Error);
    }
    this.chunks = null;
    if (decoded.length > 0) super.onResponseData(controller, decoded);
    super.onResponseEnd(controller, trailers);
  }
}
