// The bytes of a bridged request's body, as WHATWG fetch would send them: text (and
// URLSearchParams) as UTF-8, bytes as they are (a Uint8Array, an ArrayBuffer, a DataView or any
// other view), a Blob's bytes, and chunks from a sync or async iterable (an array of chunks, a
// generator of Uint8Array). What is none of these goes as its text, as fetch does
// (`String(body)`). Bounded: a body that never ends stops at MAX_BODY_BYTES with an error.

/** The largest body a bridged request sends; the host's own bounds apply after this. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function readBody(body: unknown): Promise<Buffer> {
  if (typeof body === 'string' || body instanceof URLSearchParams) return bounded(Buffer.from(String(body), 'utf8'));
  const bytes = bytesOf(body);
  if (bytes) return bounded(bytes);
  if (isBlob(body)) return bounded(Buffer.from(await body.arrayBuffer()));
  if (isIterable(body)) return readChunks(body);
  return bounded(Buffer.from(String(body), 'utf8'));
}

/** The bytes of a buffer or any view of one, copied; null for anything else. */
function bytesOf(value: unknown): Buffer | null {
  if (value instanceof ArrayBuffer || value instanceof SharedArrayBuffer) return Buffer.from(new Uint8Array(value));
  if (ArrayBuffer.isView(value)) return Buffer.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  return null;
}

async function readChunks(chunks: Iterable<unknown> | AsyncIterable<unknown>): Promise<Buffer> {
  const read: Buffer[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : bytesOf(chunk);
    if (!bytes)
      throw new TypeError(
        `a request body's chunks must be bytes (a Uint8Array, an ArrayBuffer or a view) or text, got ${chunk === null ? 'null' : typeof chunk}`,
      );
    total += bytes.length;
    bounded({ length: total });
    read.push(bytes);
  }
  return Buffer.concat(read, total);
}

function bounded<T extends { length: number }>(bytes: T): T {
  if (bytes.length > MAX_BODY_BYTES) throw new TypeError(`a request body may have at most ${MAX_BODY_BYTES} bytes`);
  return bytes;
}

function isBlob(value: unknown): value is Blob {
  return typeof Blob === 'function' && value instanceof Blob;
}

function isIterable(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  return (
    typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function' ||
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}
