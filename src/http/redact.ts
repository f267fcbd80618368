// Redaction of key values (decision R4). Every text that leaves the core, and every upstream
// answer before a handler sees it, has each form of each key value replaced by `[redacted KEY]`.
//
// The forms are those of key-forms.ts. They are found as they stand, behind JSON string escapes
// (`\/`, `\u0041`: in any text, one JSON value or not; json-escapes.ts), in bytes also as UTF-16
// of either byte order at any offset, and in an answer that declares another charset, in its
// text as that charset spells it. A key
// an upstream transforms otherwise (reversed, cut up, encoded some other way) is not found:
// redaction stops echoes; an upstream that means to leak a key it was sent cannot be stopped by
// the core. Behind it, egress.ts refuses to send any form of a key where it is not bound.
//
// Cost: a text is checked with String#includes per form (Boyer–Moore–Horspool in V8), a JSON
// answer with Buffer#includes on its bytes; escapes are undone only where one spells a character
// of some form; a parsed value is walked only where a form may be in it, and nothing is
// copied unless something matched.

import { otherCharsetDecoder, type Decoded } from './decode.js';
import { encodeJsonString, keyForms, keyParts, latin1Of } from './key-forms.js';
import { rewrite } from './rewrite-leaves.js';
import { jsonUnescaped, type TextView } from './json-escapes.js';
import { collect, merged, outermost, type Found, type PartOf, type Replaced } from './found-forms.js';
import { escapeRegExp, Needles } from './needles.js';

const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const LETTER_U = 0x75;
const REPLACEMENT_CHARACTER = 0xfffd;

/** An upstream answer as the core received it, and as a handler receives it from the bridge. */
export interface RawAnswer {
  headers: Record<string, string>;
  body: Buffer;
}

/** Replaces every known key value, in each of its forms, with `[redacted KEY]`. */
export class Redactor {
  private readonly values: ReadonlyMap<string, string>;
  /** Each form, the names of the keys it is a form of (two keys may have one value), and its marker. */
  private readonly forms = new Map<string, Replaced>();
  /** Each form's UTF-16 bytes in either byte order (one character per byte), and the marker in that order. */
  private readonly utf16Forms = new Map<string, Replaced>();
  /** The forms that contain no other form: a text holds some form exactly when it holds one of these. */
  private readonly needles: Needles;
  /** The same as a JSON text writes them, as UTF-8 bytes. */
  private readonly jsonNeedles: Needles;
  /** The same in UTF-16 of either byte order. */
  private readonly utf16Needles: Needles;
  /** Whether some needle could be part of a number written by String(n). */
  private readonly numericNeedle: boolean;
  /** Every UTF-16 code unit of every form: an escape of any other character hides no form. */
  private readonly formChars: ReadonlySet<number>;
  /** Whether some form has a character past ASCII (so an escaped character's UTF-8 bytes may be part of one). */
  private readonly nonAscii: boolean;
  private readonly pattern: RegExp;
  private readonly utf16Pattern: RegExp;
  private readonly subsets = new WeakMap<object, Redactor>();
  private readonly subsetsByNames = new Map<string, Redactor>();
  /** The same keys' whole forms only: what the egress check asks about (a handler never holds a piece of a key). */
  private readonly whole: Redactor;

  /** `values` maps each key's name to its value; `withParts`: a key's start or end counts as the key (redaction). */
  constructor(values: ReadonlyMap<string, string>, withParts = true) {
    this.values = values;
    this.whole = withParts ? new Redactor(values, false) : this;
    for (const [key, value] of values) {
      for (const form of keyForms(value)) this.formOf(form, key);
      for (const { seed, along, atStart } of withParts ? keyParts(value) : []) {
        const parts = (this.formOf(seed, key).parts ??= []) as PartOf[];
        const same = parts.find((part) => part.along === along && part.atStart === atStart);
        if (!same) parts.push({ along, atStart, keys: [key], replacement: `[redacted ${key}]` });
        else if (!same.keys.includes(key)) (same.keys as string[]).push(key);
      }
    }
    for (const [form, replaced] of this.forms) {
      for (const order of [littleEndian, bigEndian])
        this.utf16Forms.set(order(form), {
          keys: replaced.keys,
          replacement: order(replaced.replacement),
          parts: replaced.parts?.map((part) => ({
            ...part,
            along: order(part.along),
            replacement: order(part.replacement),
          })),
        });
    }
    const forms = [...this.forms.keys()];
    const needles = forms.filter((form) => !forms.some((other) => other !== form && form.includes(other)));
    this.needles = new Needles(needles);
    this.jsonNeedles = new Needles(needles.map((needle) => latin1Of(encodeJsonString(needle))));
    this.utf16Needles = new Needles(needles.flatMap((needle) => [littleEndian(needle), bigEndian(needle)]));
    this.numericNeedle = needles.some((needle) => /^[0-9.e+-]+$/.test(needle));
    const formChars = new Set(
      forms.flatMap((form) => Array.from({ length: form.length }, (_, at) => form.charCodeAt(at))),
    );
    this.formChars = formChars;
    this.nonAscii = [...formChars].some((code) => code >= 0x80);
    this.pattern = anyOf(forms);
    this.utf16Pattern = anyOf([...this.utf16Forms.keys()]);
  }

  /** What `form` is found as, made for `key` or with `key` added to its keys. */
  private formOf(form: string, key: string): Replaced {
    let known = this.forms.get(form);
    if (!known) this.forms.set(form, (known = { keys: [key], replacement: `[redacted ${key}]` }));
    else if (!known.keys.includes(key)) (known.keys as string[]).push(key);
    return known;
  }

  /**
   * The redactor for the keys `keysOf(owner)` names (those of one request plan): made on the
   * owner's first use, and shared by owners with the same names, so a call costs a lookup.
   */
  forKeysOf<T extends object>(owner: T, keysOf: (owner: T) => Iterable<string>): Redactor {
    let subset = this.subsets.get(owner);
    if (subset) return subset;
    const values = new Map(
      [...new Set(keysOf(owner))].sort().flatMap((key) => {
        const value = this.values.get(key);
        return value === undefined ? [] : [[key, value] as const];
      }),
    );
    const names = JSON.stringify([...values.keys()]);
    subset = this.subsetsByNames.get(names) ?? new Redactor(values);
    this.subsetsByNames.set(names, subset);
    this.subsets.set(owner, subset);
    return subset;
  }

  redact(text: string): string {
    return this.rewriteText(text, false);
  }

  /**
   * For each form of a key that `text` holds, the names of the keys it is a form of. With
   * `asBytes`, `text` is bytes read as latin1, where a key in UTF-16 counts too.
   */
  keysIn(text: string, asBytes = false): Array<readonly string[]> {
    if (this.whole !== this) return this.whole.keysIn(text, asBytes);
    return this.values.size === 0 ? [] : outermost(this.found(text, asBytes, false)).map((found) => found.keys);
  }

  /** Whether keysIn would find anything in `text`: the same searches, nothing collected (egress.ts asks it of every request). */
  holdsKey(text: string, asBytes = false): boolean {
    if (this.whole !== this) return this.whole.holdsKey(text, asBytes);
    if (this.values.size === 0) return false;
    if (this.needles.in(text)) return true;
    const unescaped = this.unescaped(text, asBytes);
    if (unescaped && this.needles.in(unescaped.text)) return true;
    return (asBytes || text.includes('\0')) && this.utf16Needles.in(text);
  }

  /**
   * A JSON-like value with every string, object key and number that holds a form redacted: the
   * value itself when nothing matches, else a copy that shares what did not change. Walked
   * without recursion, so any nesting is safe.
   */
  redactValue<T>(value: T): T {
    if (this.values.size === 0 || !this.valueMayHold(value)) return value;
    return rewrite(value, (leaf) => {
      const text = this.textOf(leaf);
      const clean = this.redact(text);
      return clean === text ? undefined : clean;
    }) as T;
  }

  /**
   * Whether some string, object key or number (where a form could be part of one) of a JSON-like
   * value may hold a form: each is searched as redactValue would rewrite it, the value walked
   * without recursion and left at the first that may. Most values hold none: walked once, nothing
   * copied, no text joined.
   */
  private valueMayHold(value: unknown): boolean {
    const pending: unknown[] = [value];
    while (pending.length > 0) {
      const current = pending.pop();
      if (typeof current === 'string' || typeof current === 'number') {
        if (this.leafMayHold(current)) return true;
      } else if (Array.isArray(current)) {
        for (const item of current) pending.push(item);
      } else if (typeof current === 'object' && current !== null) {
        for (const key of Object.keys(current)) {
          if (this.leafMayHold(key)) return true;
          pending.push((current as Record<string, unknown>)[key]);
        }
      }
    }
    return false;
  }

  private leafMayHold(leaf: string | number): boolean {
    const text = this.textOf(leaf);
    return text.length >= this.needles.shortest && this.mayHold(text);
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
        return this.jsonMayHold(response.body, response.headers['content-type'])
          ? { kind: 'json', value: this.redactValue(decoded.value) }
          : decoded;
      case 'text': {
        const value = this.redact(decoded.value);
        return value === decoded.value ? decoded : { kind: 'text', value };
      }
      case 'image':
      case 'binary': {
        const bytes = response.body.toString('latin1');
        const clean = this.rewriteText(bytes, true);
        const base64 = this.redact(clean === bytes ? decoded.base64 : Buffer.from(clean, 'latin1').toString('base64'));
        return base64 === decoded.base64 ? decoded : { ...decoded, base64 };
      }
      case 'empty':
        return decoded;
    }
  }

  /**
   * A raw answer as a handler receives it from the bridge (it reads the body itself): every form
   * removed from its header names and values and from its body. A body in another charset
   * whose text had to be rewritten is handed on as UTF-8, and its Content-Type says so.
   */
  redactRawAnswer(response: RawAnswer): RawAnswer {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      const clean = this.redact(name);
      // Two names that held a key each may now be one: joined, as HTTP joins a repeated header.
      headers[clean] = headers[clean] === undefined ? this.redact(value) : `${headers[clean]}, ${this.redact(value)}`;
    }
    const contentType = response.headers['content-type'];
    const { bytes, asUtf8 } = this.redactBody(response.body, contentType);
    if (asUtf8 && contentType !== undefined)
      headers['content-type'] = `${contentType.replace(CHARSET_PARAMETER, '')}; charset=utf-8`;
    return { headers, body: bytes };
  }

  /** A raw body with every form removed from its bytes, then from its text and parsed JSON where those may spell one the bytes do not. */
  private redactBody(body: Buffer, contentType: string | undefined): { bytes: Buffer; asUtf8: boolean } {
    if (this.values.size === 0) return { bytes: body, asUtf8: false };
    // Keys are text: redacting the bytes read as latin1 keeps every other byte as it was.
    const latin1 = body.toString('latin1');
    const clean = this.rewriteText(latin1, true);
    const bytes = clean === latin1 ? body : Buffer.from(clean, 'latin1');
    const decoder = otherCharsetDecoder(contentType);
    if (decoder) {
      // The text as a handler reads it in the declared charset, which spells a key its own way.
      const text = decoder.decode(bytes);
      // Parsing reveals no more than undoing the escapes does, numbers apart.
      if (!this.numericNeedle && !this.mayHold(text)) return { bytes, asUtf8: false };
      const redacted = this.redact(this.redactedJson(text));
      return redacted === text ? { bytes, asUtf8: false } : { bytes: Buffer.from(redacted, 'utf8'), asUtf8: true };
    }
    if (!this.jsonMayHold(bytes, contentType)) return { bytes, asUtf8: false };
    const text = bytes.toString('utf8');
    const redacted = this.redactedJson(text);
    return { bytes: redacted === text ? bytes : Buffer.from(redacted, 'utf8'), asUtf8: false };
  }

  /** A JSON text written again from its value with every form redacted; the very text when it is no JSON or holds none. */
  private redactedJson(text: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // JSON.parse throws only on text that is no JSON: the very text, as said above.
      return text;
    }
    const redacted = this.redactValue(parsed);
    return redacted === parsed ? text : JSON.stringify(redacted);
  }

  /** `text` with every form found replaced; `asBytes` as for keysIn. */
  private rewriteText(text: string, asBytes: boolean): string {
    if (this.values.size === 0) return text;
    const found = this.found(text, asBytes);
    if (found.length === 0) return text;
    let result = '';
    let at = 0;
    for (const { start, end, replacement } of found) {
      result += text.slice(at, start) + replacement;
      at = end;
    }
    return result + text.slice(at);
  }

  /** Whether `text` may hold a form, as it stands, behind escapes or in UTF-16 (see found). */
  private mayHold(text: string): boolean {
    if (this.needles.in(text) || (text.includes('\0') && this.utf16Needles.in(text))) return true;
    const unescaped = this.unescaped(text, false);
    return unescaped !== null && this.needles.in(unescaped.text);
  }

  /**
   * Every form in `text`, as it stands, behind escapes and in UTF-16, in order and not
   * overlapping. UTF-16 is looked for in bytes, and in a text with NUL characters (UTF-16 bytes
   * read as UTF-8 or latin1 text, which a handler turns back by dropping the NULs).
   */
  private found(text: string, asBytes: boolean, merge = true): Found[] {
    const found: Found[] = [];
    if (this.needles.in(text)) collect(text, null, this.pattern, this.forms, found, true);
    const unescaped = this.unescaped(text, asBytes);
    if (unescaped && this.needles.in(unescaped.text))
      collect(unescaped.text, unescaped, this.pattern, this.forms, found, true);
    if ((asBytes || text.includes('\0')) && this.utf16Needles.in(text))
      collect(text, null, this.utf16Pattern, this.utf16Forms, found, false);
    return found.length < 2 || !merge ? found : merged(found);
  }

  private unescaped(text: string, asBytes: boolean): TextView | null {
    return text.length < this.needles.shortest || !text.includes('\\')
      ? null
      : jsonUnescaped(text, asBytes, this.escapeMatters);
  }

  /** Whether an escaped character could be (a UTF-8 byte of) a form's character. */
  private readonly escapeMatters = (code: number): boolean =>
    this.formChars.has(code) || (code >= 0x80 && this.nonAscii);

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
    for (let at = body.indexOf(BACKSLASH); at !== -1;) {
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

/** A `charset` parameter of a Content-Type, with the `;` before it. */
const CHARSET_PARAMETER = /\s*;\s*charset\s*=\s*("[^"]*"|[^;\s]*)/gi;

/** One expression that finds any of `forms`, longest first so that a form containing another is found whole. */
function anyOf(forms: readonly string[]): RegExp {
  const alternatives = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(alternatives.length > 0 ? alternatives.join('|') : '(?!)', 'g');
}

/** A text's UTF-16 bytes in either byte order, one character per byte. */
const littleEndian = (text: string): string => Buffer.from(text, 'utf16le').toString('latin1');
const bigEndian = (text: string): string => Buffer.from(text, 'utf16le').swap16().toString('latin1');

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
