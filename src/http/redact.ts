// Redaction of key values (RULINGS R4). Every text that leaves the core, and every upstream
// answer before a handler sees it, has each form of each key value replaced by `[redacted KEY]`.
//
// The forms are the spellings the core writes a key in (as it is in a header, percent-encoded in
// a URL, JSON-escaped in a body), those an upstream echoes it in (percent-encoded with lower-case
// hex, or as form data), and each of these as hex in either case, base64 and base64url, whole or
// as part of a longer base64 text (a Basic auth header, a dump of the request). A key an upstream
// transforms otherwise (reversed, cut up, encoded some other way) is not found: redaction stops
// echoes; an upstream that means to leak a key it was sent cannot be stopped by the core.
//
// Cost: a text is checked with String#includes per form (Boyer–Moore–Horspool in V8), a JSON
// answer with Buffer#includes on its bytes; a parsed value is walked only where a form may be in
// it, and nothing is copied unless something matched.

import type { Decoded } from './decode.js';

/** Inside a JSON string literal: the value's JSON escaping without the quotes. */
export const encodeJsonString = (value: string): string => JSON.stringify(value).slice(1, -1);

/** Shortest piece of a longer base64 text taken as a key's: shorter ones turn up by chance. */
const MIN_BASE64_PIECE = 8;
/**
 * Up to this many needles a text is searched once per needle; past it one regular expression
 * finds any of them faster (about 13 µs per needle per 100 kB, against about 200 µs in all).
 */
const MAX_SEPARATE_SEARCHES = 10;

const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const LETTER_U = 0x75;
const REPLACEMENT_CHARACTER = 0xfffd;

/** Every spelling of `value` that is redacted (see the top of this file), without duplicates. */
export function keyForms(value: string): string[] {
  const percent = encodeURIComponent(value);
  const formEncoded = new URLSearchParams({ v: value }).toString().slice(2);
  const texts = new Set([value, encodeJsonString(value), percent, lowerCaseEscapes(percent), formEncoded, lowerCaseEscapes(formEncoded)]);
  // Each of these may come back as bytes in hex or base64 (a Basic header, a dump of the request).
  const forms = [...texts].flatMap((text) => {
    const bytes = Buffer.from(text, 'utf8');
    const hex = bytes.toString('hex');
    return [text, hex, hex.toUpperCase(), ...base64Forms(bytes)];
  });
  // A binary answer is searched as bytes, one character per byte (latin1): there a key that is
  // not ASCII shows as its UTF-8 bytes.
  const asBytes = forms.map(latin1Of);
  return [...new Set([...forms, ...asBytes])].filter((form) => form.length > 0);
}

const lowerCaseEscapes = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/** A text's UTF-8 bytes, one character per byte. */
const latin1Of = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

function base64Forms(bytes: Buffer): string[] {
  const whole = bytes.toString('base64');
  const forms = [whole, whole.replace(/=+$/, '')];
  // Inside a longer base64 text the key starts at byte 0, 1 or 2 of a 3-byte group. The
  // characters made of its own bits alone are the same whatever surrounds it.
  for (let offset = 0; offset < 3; offset++) {
    const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const piece = text.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    if (piece.length >= MIN_BASE64_PIECE) forms.push(piece);
  }
  return [...forms, ...forms.map((form) => form.replaceAll('+', '-').replaceAll('/', '_'))];
}

/**
 * Texts searched for, in a string or in bytes (where each character of a needle stands for one
 * byte). A few are searched one by one; many at once with one regular expression.
 */
class Needles {
  readonly shortest: number;
  private readonly bytes: readonly Buffer[];
  private readonly anyOf: RegExp | null;

  constructor(private readonly texts: readonly string[]) {
    this.shortest = Math.min(...texts.map((text) => text.length));
    this.bytes = texts.map((text) => Buffer.from(text, 'latin1'));
    this.anyOf = texts.length > MAX_SEPARATE_SEARCHES ? new RegExp(texts.map(escapeRegExp).join('|')) : null;
  }

  in(text: string): boolean {
    if (text.length < this.shortest) return false;
    if (this.anyOf) return this.anyOf.test(text);
    for (const needle of this.texts) if (text.includes(needle)) return true;
    return false;
  }

  inBytes(bytes: Buffer): boolean {
    if (bytes.length < this.shortest) return false;
    if (this.anyOf) return this.anyOf.test(bytes.toString('latin1'));
    for (const needle of this.bytes) if (bytes.includes(needle)) return true;
    return false;
  }
}

/** Replaces every known key value, in each of its forms, with `[redacted KEY]`. */
export class Redactor {
  private readonly values: ReadonlyMap<string, string>;
  /** Each form and the name of its key. */
  private readonly keyOfForm = new Map<string, string>();
  /** The forms that contain no other form: a text holds some form exactly when it holds one of these. */
  private readonly needles: Needles;
  /** The same as a JSON text writes them, as UTF-8 bytes. */
  private readonly jsonNeedles: Needles;
  /** Whether some needle could be part of a number written by String(n). */
  private readonly numericNeedle: boolean;
  /** Every UTF-16 code unit of every form: a JSON escape of any other character hides no form. */
  private readonly formChars: ReadonlySet<number>;
  /** Joins the texts of a value for one search: a character in no form, so no form spans two. */
  private readonly separator: string;
  private readonly pattern: RegExp;
  private readonly subsets = new WeakMap<object, Redactor>();
  private readonly subsetsByNames = new Map<string, Redactor>();

  /** `values` maps each key's name to its value. */
  constructor(values: ReadonlyMap<string, string>) {
    this.values = values;
    for (const [key, value] of values) {
      for (const form of keyForms(value)) if (!this.keyOfForm.has(form)) this.keyOfForm.set(form, key);
    }
    const forms = [...this.keyOfForm.keys()];
    const needles = forms.filter((form) => !forms.some((other) => other !== form && form.includes(other)));
    this.needles = new Needles(needles);
    this.jsonNeedles = new Needles(needles.map((needle) => latin1Of(encodeJsonString(needle))));
    this.numericNeedle = needles.some((needle) => /^[0-9.e+-]+$/.test(needle));
    const formChars = new Set(forms.flatMap((form) => Array.from({ length: form.length }, (_, at) => form.charCodeAt(at))));
    this.formChars = formChars;
    let separator = 0;
    while (formChars.has(separator)) separator++;
    this.separator = String.fromCharCode(separator);
    // Longest first, so that a form that contains another is replaced whole.
    const alternatives = forms.sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = new RegExp(alternatives.length > 0 ? alternatives.join('|') : '(?!)', 'g');
  }

  /**
   * The redactor for the keys `keysOf(owner)` names (those of one request plan): made on the
   * owner's first use, and shared by owners with the same names, so a call costs a lookup.
   */
  forKeysOf<T extends object>(owner: T, keysOf: (owner: T) => Iterable<string>): Redactor {
    let subset = this.subsets.get(owner);
    if (subset) return subset;
    const values = new Map([...new Set(keysOf(owner))].sort().flatMap((key) => {
      const value = this.values.get(key);
      return value === undefined ? [] : [[key, value] as const];
    }));
    const names = JSON.stringify([...values.keys()]);
    subset = this.subsetsByNames.get(names) ?? new Redactor(values);
    this.subsetsByNames.set(names, subset);
    this.subsets.set(owner, subset);
    return subset;
  }

  redact(text: string): string {
    return this.needles.in(text) ? text.replace(this.pattern, (form) => `[redacted ${this.keyOfForm.get(form) ?? 'key'}]`) : text;
  }

  /**
   * A JSON-like value with every string, object key and number that holds a form redacted: the
   * value itself when nothing matches, else a copy that shares what did not change. Walked
   * without recursion, so any nesting is safe.
   */
  redactValue<T>(value: T): T {
    if (this.values.size === 0) return value;
    // First one search over the value's texts joined; the walk that rewrites only on a match.
    const texts: string[] = [];
    rewrite(value, (leaf) => {
      const text = this.textOf(leaf);
      if (text.length >= this.needles.shortest) texts.push(text);
      return undefined;
    });
    if (!this.needles.in(texts.join(this.separator))) return value;
    return rewrite(value, (leaf) => {
      const text = this.textOf(leaf);
      return this.needles.in(text) ? this.redact(text) : undefined;
    }) as T;
  }

  /**
   * An upstream answer as a handler may see it: every form of these keys removed from its text,
   * from its parsed JSON (string values, object keys, numbers), or from a binary answer's bytes
   * and their base64. `response` is what `decoded` was decoded from.
   */
  redactAnswer(decoded: Decoded, response: { body: Buffer; headers: Readonly<Record<string, string>> }): Decoded {
    if (this.values.size === 0) return decoded;
    switch (decoded.kind) {
      case 'json':
        return this.jsonMayHold(response.body, response.headers['content-type']) ? { kind: 'json', value: this.redactValue(decoded.value) } : decoded;
      case 'text': {
        const value = this.redact(decoded.value);
        return value === decoded.value ? decoded : { kind: 'text', value };
      }
      case 'image':
      case 'binary': {
        const bytes = response.body.toString('latin1');
        const clean = this.redact(bytes);
        const base64 = this.redact(clean === bytes ? decoded.base64 : Buffer.from(clean, 'latin1').toString('base64'));
        return base64 === decoded.base64 ? decoded : { ...decoded, base64 };
      }
      case 'empty':
        return decoded;
    }
  }

  /**
   * A raw answer body as a handler receives it from the bridge (it decodes the body itself):
   * every form removed from its bytes, and, where JSON escapes could spell a key that only
   * parsing reveals, from the parsed JSON too (written back as JSON).
   */
  redactBody(body: Buffer, contentType: string | undefined): Buffer {
    if (this.values.size === 0) return body;
    // Keys are text: redacting the bytes read as latin1 keeps every other byte as it was.
    const latin1 = body.toString('latin1');
    const clean = this.redact(latin1);
    const bytes = clean === latin1 ? body : Buffer.from(clean, 'latin1');
    if (!this.jsonMayHold(bytes, contentType)) return bytes;
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      return bytes;
    }
    const redacted = this.redactValue(parsed);
    return redacted === parsed ? bytes : Buffer.from(JSON.stringify(redacted), 'utf8');
  }

  /** The text of a leaf of a JSON value; a number's only where some form could be part of one. */
  private textOf(leaf: string | number): string {
    return typeof leaf === 'string' ? leaf : this.numericNeedle ? String(leaf) : '';
  }

  /**
   * Whether the value parsed from a JSON body may hold a form; false only where its bytes show it
   * cannot. A string holding a form is written in the text as that form's JSON escaping, except
   * where an escape spells one of its characters another way: `\uXXXX` (looked at one by one)
   * or `\/` (taken out before the search).
   */
  private jsonMayHold(body: Buffer, contentType: string | undefined): boolean {
    // The search reads bytes: it holds only where JSON.parse read the same text, as UTF-8.
    if (!readAsUtf8(contentType) || this.formChars.has(REPLACEMENT_CHARACTER)) return true;
    const slashEscapes: number[] = [];
    for (let at = body.indexOf(BACKSLASH); at !== -1; ) {
      if (body[at + 1] === LETTER_U) {
        if (this.formChars.has(Number.parseInt(body.toString('latin1', at + 2, at + 6), 16))) return true;
        at = body.indexOf(BACKSLASH, at + 6);
      } else {
        if (body[at + 1] === SLASH && this.formChars.has(SLASH)) slashEscapes.push(at);
        at = body.indexOf(BACKSLASH, at + 2);
      }
    }
    return this.jsonNeedles.inBytes(slashEscapes.length > 0 ? withoutBytesAt(body, slashEscapes) : body);
  }
}

/** Whether decode.ts read the body as UTF-8: no charset named, or exactly utf-8 (anything unusual counts as no). */
function readAsUtf8(contentType: string | undefined): boolean {
  const named = contentType?.match(/charset/gi)?.length ?? 0;
  return named === 0 || (named === 1 && /;\s*charset\s*=\s*"?utf-?8"?\s*(;|$)/i.test(contentType as string));
}

function withoutBytesAt(body: Buffer, positions: readonly number[]): Buffer {
  const pieces: Buffer[] = [];
  let from = 0;
  for (const at of positions) {
    pieces.push(body.subarray(from, at));
    from = at + 1;
  }
  pieces.push(body.subarray(from));
  return Buffer.concat(pieces);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The replacement of a string or number, or undefined to leave it. */
type LeafChange = (leaf: string | number) => string | undefined;

/** An array or object being rewritten, and where it sits in its parent. */
interface Frame {
  source: unknown[] | Record<string, unknown>;
  /** The object's own keys; null for an array. */
  keys: string[] | null;
  next: number;
  /** Values and keys as rewritten so far; null while nothing in this container changed. */
  values: unknown[] | null;
  names: string[] | null;
  parent: Frame | null;
  index: number;
}

/**
 * `root` with each string, number and object key that `change` replaces, walked with an
 * explicit stack. Only the arrays and objects on the way to a change are copied (objects with
 * Object.fromEntries, so a `__proto__` key stays an own property).
 */
function rewrite(root: unknown, change: LeafChange): unknown {
  if (typeof root !== 'object' || root === null) return changeLeaf(root, change) ?? root;
  let frame: Frame | null = open(root, null, 0);
  let result: unknown = root;
  while (frame) {
    const { source, keys } = frame;
    if (frame.next < (keys ?? (source as unknown[])).length) {
      const index = frame.next++;
      let child: unknown;
      if (keys) {
        const name = keys[index] as string;
        const renamed = change(name);
        if (renamed !== undefined) (edit(frame).names as string[])[index] = renamed;
        child = (source as Record<string, unknown>)[name];
      } else {
        child = (source as unknown[])[index];
      }
      if (typeof child === 'object' && child !== null) {
        frame = open(child, frame, index);
        continue;
      }
      const replaced = changeLeaf(child, change);
      if (replaced !== undefined) (edit(frame).values as unknown[])[index] = replaced;
      continue;
    }
    const done = finished(frame);
    if (frame.parent && done !== source) (edit(frame.parent).values as unknown[])[frame.index] = done;
    if (!frame.parent) result = done;
    frame = frame.parent;
  }
  return result;
}

function open(container: object, parent: Frame | null, index: number): Frame {
  const keys = Array.isArray(container) ? null : Object.keys(container);
  return { source: container as Frame['source'], keys, next: 0, values: null, names: null, parent, index };
}

/** The frame, with its copy started. */
function edit(frame: Frame): Frame {
  if (frame.values === null) {
    const { source, keys } = frame;
    frame.values = keys ? keys.map((key) => (source as Record<string, unknown>)[key]) : (source as unknown[]).slice();
    frame.names = keys ? keys.slice() : null;
  }
  return frame;
}

/** The container a frame stands for once walked: its source, or the copy if anything changed. */
function finished({ source, values, names }: Frame): unknown {
  if (values === null) return source;
  return names === null ? values : Object.fromEntries(names.map((name, at) => [name, values[at]]));
}

function changeLeaf(leaf: unknown, change: LeafChange): string | undefined {
  return typeof leaf === 'string' || typeof leaf === 'number' ? change(leaf) : undefined;
}
