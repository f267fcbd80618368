// Redaction of key values (RULINGS R4): every text that leaves the core, and every upstream
// answer before a handler sees it, has each form of each key value replaced by `[redacted KEY]`.

/** Replaces every known key value in a text with `[redacted KEY]`. */
export class Redactor {
  private readonly pattern: RegExp | null;
  private readonly forms = new Map<string, string>();

  /** `values` maps each key's name to its value. */
  constructor(values: ReadonlyMap<string, string>) {
    // The raw value and the forms it takes in a URL or a JSON string all count.
    for (const [key, value] of values) {
      for (const form of [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), encodeJsonString(value)]) this.forms.set(form, key);
    }
    const forms = this.forms;
    // Longest first, so a value that contains another is replaced whole.
    const alternatives = [...forms.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = alternatives.length > 0 ? new RegExp(alternatives.join('|'), 'g') : null;
  }

  redact(text: string): string {
    return this.pattern ? text.replace(this.pattern, (match) => `[redacted ${this.forms.get(match) ?? 'key'}]`) : text;
  }

  /** Redacts every string inside a JSON-like value: the value itself when nothing matches, else a copy. */
  redactValue<T>(value: T): T {
    if (!this.pattern) return value;
    const json = JSON.stringify(value);
    if (json === undefined) return value;
    this.pattern.lastIndex = 0;
    if (!this.pattern.test(json)) return value;
    return JSON.parse(this.redact(json)) as T;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}


/** Inside a JSON string literal: the value's JSON escaping without the quotes. */
export const encodeJsonString = (value: string): string => JSON.stringify(value).slice(1, -1);
