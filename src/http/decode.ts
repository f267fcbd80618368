// Response decoding by content type (decision R9).
//
// - Empty body → empty, whatever the content type says (204s, empty 200s).
// - `application/json`, `text/json` and any `+json` type → parsed JSON; invalid JSON is an error
//   naming the content type and an excerpt of the first bytes.
// - `text/*`, `application/xml`, any `+xml` type and a few well-known textual `application/*`
//   types (JavaScript, YAML, NDJSON, form data) → text, decoded with the header's charset
//   (default utf-8). An unknown charset is an error, not a silent fallback, and so are bytes
//   that are not valid in the charset (never a silent U+FFFD).
// - `image/*` → image (base64), except `image/svg+xml`, which is XML text.
// - Anything else → binary (base64).
// - No (or an unparsable) content type: sniff. Valid JSON → json; valid UTF-8 without NUL → text;
//   else binary `application/octet-stream`.
import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { failed, ok, type Result } from '../errors/result.js';
import { readMediaType, type MediaType } from '../shared/media-type.js';

export type Decoded =
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; value: string }
  | { kind: 'image'; mimeType: string; base64: string }
  | { kind: 'binary'; mimeType: string; base64: string }
  | { kind: 'empty' };

export type DecodeError = { kind: 'error'; message: string };

const TEXTUAL_APPLICATION_TYPES = new Set([
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/yaml',
  'application/x-yaml',
  'application/x-ndjson',
  'application/ndjson',
  'application/x-www-form-urlencoded',
]);

const SNIFFED_BINARY = 'application/octet-stream';

/** The Content-Type read last and what it says: an upstream sends the same one answer after answer. */
let lastRead: { header: string; type: MediaType | undefined } = { header: '', type: undefined };

/** Parses `type/subtype; charset=x`; undefined when missing or not a media type. */
function parseContentType(header: string | undefined): MediaType | undefined {
  if (header === undefined) return undefined;
  if (header !== lastRead.header) lastRead = { header, type: readMediaType(header) };
  return lastRead.type;
}

function isJsonType(essence: string): boolean {
  return essence === 'application/json' || essence === 'text/json' || essence.endsWith('+json');
}

function isTextType(essence: string): boolean {
  return (
    essence.startsWith('text/') ||
    essence.endsWith('+xml') ||
    essence.endsWith('+yaml') ||
    TEXTUAL_APPLICATION_TYPES.has(essence)
  );
}

function decodeText(body: Buffer, charset: string | undefined, essence: string): string | DecodeError {
  let decoder = utf8Decoder;
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    try {
      decoder = new TextDecoder(charset, { fatal: true });
    } catch {
      // TextDecoder throws only on a label it does not know: that is the error's text.
      return { kind: 'error', message: `unsupported charset "${charset.slice(0, 40)}"` };
    }
  }
  // UTF-8 is checked and decoded natively: TextDecoder's own JavaScript runs on every answer.
  if (decoder === utf8Decoder && isUtf8(body)) return body.toString('utf8', startsWithBom(body) ? 3 : 0);
  try {
    return decoder.decode(body);
  } catch {
    // A fatal decoder throws only on bytes that are not its encoding: said below.
    if (decoder !== utf8Decoder)
      return { kind: 'error', message: `response is not valid ${decoder.encoding} text (${essence})` };
    const valid = validUtf8Length(body);
    const before = valid === 0 ? '' : `, after: ${excerpt(body.subarray(0, valid), 80)}`;
    return {
      kind: 'error',
      message: `response is not valid UTF-8 (${essence}): byte ${valid} of ${body.length} starts no UTF-8 character${before}`,
    };
  }
}

/** How many bytes at the start of `body` are valid UTF-8 (a binary search over prefixes; error path only). */
function validUtf8Length(body: Buffer): number {
  // A prefix passes while it holds no invalid byte; a character it cuts in two is trimmed off.
  const passes = (length: number) => isUtf8(trimPartialUtf8(body.subarray(0, length)));
  let low = 0;
  let high = body.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (passes(middle)) low = middle;
    else high = middle - 1;
  }
  return trimPartialUtf8(body.subarray(0, low)).length;
}

/** TextDecoder drops a leading BOM (Buffer#toString would keep it); `fatal` refuses bad bytes. */
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** Whether `body` starts with UTF-8's byte order mark, which decoding drops as TextDecoder does. */
function startsWithBom(body: Buffer): boolean {
  return body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
}

function parseJson(text: string): Result<unknown, SyntaxError> {
  try {
    return ok(JSON.parse(text));
  } catch (error) {
    // JSON.parse throws only on text that is no JSON (a SyntaxError): the caller says so.
    return failed(error as SyntaxError);
  }
}

export function decodeBody(body: Buffer, contentType: string | undefined): Decoded | DecodeError {
  if (body.length === 0) return { kind: 'empty' };
  const type = parseContentType(contentType);
  if (type === undefined) return sniff(body);
  const { essence, charset } = type;

  if (isJsonType(essence)) {
    const text = decodeText(body, charset, essence);
    if (typeof text !== 'string') return text;
    const parsed = parseJson(text);
    if (!parsed.ok) {
      return { kind: 'error', message: `response is not valid JSON (${essence}): ${excerpt(body, 80)}` };
    }
    return { kind: 'json', value: parsed.value };
  }
  if (essence === 'image/svg+xml' || isTextType(essence)) {
    const text = decodeText(body, charset, essence);
    if (typeof text !== 'string') return text;
    return { kind: 'text', value: text };
  }
  if (essence.startsWith('image/')) {
    return { kind: 'image', mimeType: essence, base64: body.toString('base64') };
  }
  return { kind: 'binary', mimeType: essence, base64: body.toString('base64') };
}

/**
 * A reader for the text of a body whose Content-Type names a charset other than UTF-8, one that
 * TextDecoder knows (not fatal, as a handler may read it too); undefined for UTF-8 or none.
 */
export function otherCharsetDecoder(contentType: string | undefined): TextDecoder | undefined {
  const charset = parseContentType(contentType)?.charset;
  if (charset === undefined) return undefined;
  try {
    const decoder = new TextDecoder(charset);
    return decoder.encoding === 'utf-8' ? undefined : decoder;
  } catch {
    // An unknown label: decoded as UTF-8, as without one.
    return undefined;
  }
}

/**
 * What a Content-Type says about JSON: true when it names a JSON type, false when it names
 * another type, undefined when it is missing or unparsable (decodeBody then sniffs the body).
 */
export function namesJson(contentType: string | undefined): boolean | undefined {
  const type = parseContentType(contentType);
  return type === undefined ? undefined : isJsonType(type.essence);
}

function sniff(body: Buffer): Decoded {
  if (isUtf8(body) && !body.includes(0)) {
    const text = utf8Decoder.decode(body);
    const parsed = parseJson(text);
    if (parsed.ok) return { kind: 'json', value: parsed.value };
    return { kind: 'text', value: text };
  }
  return { kind: 'binary', mimeType: SNIFFED_BINARY, base64: body.toString('base64') };
}

/**
 * A short, single-line, printable excerpt of a body for error messages: at most `max` bytes
 * decoded as UTF-8, control and bidi-override characters and whitespace runs folded into one
 * space, `…` when cut. A body that is not text says so instead. Callers redact the result (R4).
 */
export function excerpt(body: Buffer, max = 200): string {
  if (body.length === 0) return '(empty body)';
  const cut = body.length > max;
  let head = body.subarray(0, Math.max(0, max));
  if (head.includes(0) || !isUtf8(trimPartialUtf8(head))) return `(${body.length} bytes of binary data)`;
  head = trimPartialUtf8(head);
  const text = head
    .toString('utf8')
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\s]+/g, ' ')
    .trim();
  return cut ? `${text}…` : text;
}

/** Drops an incomplete UTF-8 sequence at the end (left by cutting at a byte count). */
function trimPartialUtf8(bytes: Buffer): Buffer {
  let end = bytes.length;
  let i = end - 1;
  // Walk back over at most 3 continuation bytes to the lead byte.
  while (i >= 0 && end - i <= 4 && (bytes[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return bytes;
  const lead = bytes[i]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (end - i < need) end = i;
  return bytes.subarray(0, end);
}
