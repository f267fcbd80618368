// Content-Encoding (RFC 9110 §8.4): gzip, deflate and br are undone here, with the size cap on
// the decoded bytes. zlib stops as soon as its output passes the cap, so a small body that would
// inflate to gigabytes costs about the cap, not its full size. Anything else is a decode error.

import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';
import { HttpError } from './errors.js';

/** Sent with every request that does not name its own. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

type Decoder = (body: Buffer, options: ZlibOptions) => Buffer;

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  // HTTP's "deflate" is the zlib format, but some servers send raw deflate: the zlib header's
  // first byte names method 8 (deflate) in its low four bits; raw deflate data rarely does.
  deflate: (body, options) =>
    ((body[0] ?? 0) & 0x0f) === 8 ? inflateSync(body, options) : inflateRawSync(body, options),
  br: brotliDecompressSync,
};

/** What a zlib function returns with `info: true`: its output, and how many input bytes it read. */
interface Undone {
  buffer: Buffer;
  engine: { bytesWritten: number };
}

/** Most codings stacked on one body: one is the rule, two happen, more is an attack. */
const MAX_CODINGS = 3;

/**
 * `body` with the codings of `header` undone, last applied first; at most `limit` bytes come
 * out of each step. A coding that is unknown or a body that does not decode is an HttpError.
 */
export function decodeContent(body: Buffer, header: string, limit: number): Buffer {
  if (body.length === 0) return body; // nothing was encoded (a 204, an empty 200)
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > MAX_CODINGS)
    throw new HttpError(
      'decode',
      `response uses ${codings.length} content codings; at most ${MAX_CODINGS} are decoded`,
    );
  let decoded = body;
  for (const coding of codings.reverse()) {
    const decoder = DECODERS[coding];
    if (decoder === undefined)
      throw new HttpError(
        'decode',
        `response uses Content-Encoding "${coding.slice(0, 40)}", which cannot be decoded (gzip, deflate and br can)`,
      );
    let undone: Undone;
    try {
      undone = decoder(decoded, { maxOutputLength: limit, info: true } as ZlibOptions) as unknown as Undone;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new HttpError(
          'too-large',
          `response body larger than ${limit} bytes once decoded from ${coding} (maxResponseBytes)`,
        );
      }
      throw new HttpError('decode', `response body is not valid ${coding} data (Content-Encoding: ${coding})`);
    }
    // zlib's deflate and brotli stop at their data's end and drop what follows without a word;
    // gzip refuses it, but for zero bytes, padding that holds nothing, which every coding may keep.
    const after = decoded.subarray(undone.engine.bytesWritten);
    if (after.some((byte) => byte !== 0))
      throw new HttpError(
        'decode',
        `response body is not valid ${coding} data: ${after.length} bytes follow its end (Content-Encoding: ${coding})`,
      );
    decoded = undone.buffer;
  }
  return decoded;
}
