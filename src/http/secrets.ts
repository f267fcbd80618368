// API keys (RULINGS R4). The core holds the values; only placeholders travel. A request is built
// with an unguessable token in each declared secret slot, handlers see and may move only that
// token, and just before the request leaves the core puts the values into the slots the schema
// declared, nowhere else. A user argument that spells `{{KEY}}` is text, never a key. Every
// string that leaves the core goes through `redact`.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';
import { encodeJsonString, Redactor } from './redact.js';

export class SecretStore {
  private readonly values: ReadonlyMap<string, string>;

  /** `env` wins over `.env`, as dotenv does; an empty value counts as missing. */
  constructor(env: Readonly<Record<string, string | undefined>>, dotenv: Readonly<Record<string, string>> = {}) {
    const values = new Map<string, string>();
    for (const [key, value] of Object.entries({ ...dotenv, ...env })) {
      if (typeof value === 'string' && value !== '') values.set(key, value);
    }
    this.values = values;
  }

  /** The process environment plus the project's `.env` file, if there is one. */
  static fromProject(projectDir: string, env: Readonly<Record<string, string | undefined>> = process.env): SecretStore {
    let dotenv: Record<string, string> = {};
    try {
      dotenv = parse(readFileSync(join(projectDir, '.env')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return new SecretStore(env, dotenv);
  }

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  missing(keys: readonly string[]): string[] {
    return keys.filter((key) => !this.values.has(key));
  }

  /** A redactor for the keys one catalog declares: only their values are known to be secret. */
  redactorFor(keys: Iterable<string>): Redactor {
    const values = new Map<string, string>();
    for (const key of new Set(keys)) {
      const value = this.values.get(key);
      if (value) values.set(key, value);
    }
    return new Redactor(values);
  }
}

/** Where a route declared secrets: the URL (root, path, query), named headers, the body. */
export interface SecretSlots {
  url: ReadonlySet<string>;
  headers: ReadonlyMap<string, ReadonlySet<string>>;
  body: ReadonlySet<string>;
}

/**
 * One request's placeholder tokens: random per call, so neither a user argument nor a handler
 * can forge one, and a token copied anywhere but a declared slot stays a meaningless string.
 */
export class SecretTokens {
  // 122 random bits from Node's batched generator: cheap enough for every call.
  private readonly nonce = randomUUID().replaceAll('-', '');

  /** Letters, digits and `_` only: the token survives URL and JSON encoding unchanged. */
  token(key: string): string {
    return `__secret_${key}_${this.nonce}__`;
  }

  /** Puts key values into the declared slots of a request that preRequest may have changed. */
  fill(request: { url: string; headers: Record<string, string>; body?: string }, slots: SecretSlots, store: SecretStore): { url: string; headers: Record<string, string>; body?: string } {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      headers[name] = this.replace(value, slots.headers.get(name.toLowerCase()), store, encodeNothing);
    }
    const filled: { url: string; headers: Record<string, string>; body?: string } = {
      url: this.replace(request.url, slots.url, store, encodeURIComponent),
      headers,
    };
    if (request.body !== undefined) filled.body = this.replace(request.body, slots.body, store, encodeJsonString);
    return filled;
  }

  private replace(text: string, keys: ReadonlySet<string> | undefined, store: SecretStore, encode: (value: string) => string): string {
    if (!keys || keys.size === 0 || !text.includes(this.nonce)) return text;
    let result = text;
    for (const key of keys) {
      const value = store.get(key);
      if (value !== undefined) result = result.split(this.token(key)).join(encode(value));
    }
    return result;
  }
}

const encodeNothing = (value: string): string => value;
