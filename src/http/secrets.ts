// API keys (decision R4). The operator grants them; the core holds the values and only
// placeholders travel. A request is built with an unguessable token in each slot where the
// schema places a key, handlers see and may move only that token, and just before the request
// leaves for the schema's own origin the core puts the values into the declared slots, nowhere
// else. A user argument that spells `{{KEY}}` is text, never a key. Every string that leaves
// the core goes through a Redactor.

import { randomFillSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';
import type { KeyGrant } from '../config/project.js';
import { encodeJsonString } from './key-forms.js';
import { Redactor } from './redact.js';

/** Where a granted key's value comes from. */
export type KeySource = '.env' | 'environment' | 'program';

/**
 * Whether one namespace may use one key, and if not, what the operator would change: `fix` is
 * the exact line to add (to `.env` or to `security.keys` in `.flowmcp/config.json`).
 */
export type KeyAccess =
  | { granted: true; source: KeySource }
  | { granted: false; reason: 'unset' | 'not-granted' | 'bound-elsewhere' | 'held'; fix: string };

// `held`: the key lock (src/keylock/) holds the key back from the schema file; `fix` is the command that accepts the change.
const REFUSAL_WORDS = {
  unset: 'not set',
  'not-granted': 'in the environment but not granted',
  'bound-elsewhere': 'granted to other namespaces only',
  held: 'held back by the key lock',
} as const;

/** Why a key is refused, in words: `not set`, `in the environment but not granted`, ... */
export function refusalText(access: KeyAccess): string {
  return access.granted ? 'granted' : REFUSAL_WORDS[access.reason];
}

export interface SecretSources {
  /** The process environment: a value is used only where a grant names the variable. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The project's `.env` file: the operator wrote it for flowguard, so its keys need no grant. */
  dotenv?: Readonly<Record<string, string>>;
  /** Values handed over by the program that embeds flowguard: as trusted as `.env`. */
  given?: Readonly<Record<string, string | undefined>>;
  /** `security.keys` of the config. */
  grants?: readonly KeyGrant[];
}

/** The project's `.env` file, whose keys need no grant. */
export function envFilePath(projectDir: string): string {
  return join(projectDir, '.env');
}

/**
 * The keys the operator grants (decision R4). A schema only names a key in
 * `requiredServerParams`; it gets a value only from `.env`, from the embedding program, or from
 * an environment variable that `security.keys` names, and only in the namespaces the grant binds
 * it to. Otherwise any schema could read any secret of the server's environment by naming it.
 */
export class SecretStore {
  private readonly values = new Map<string, { value: string; source: KeySource }>();
  /** Environment variables that hold a value but were not granted: only for saying so. */
  private readonly ungranted = new Set<string>();
  private readonly grants: readonly KeyGrant[];
  /** grantOf's answers (null: no grant names the key), for the store's keys and the environment's names. */
  private readonly grantsByKey = new Map<string, KeyGrant | null>();

  constructor({ env = {}, dotenv = {}, given = {}, grants = [] }: SecretSources = {}) {
    this.grants = grants;
    const put = (source: KeySource, entries: Readonly<Record<string, string | undefined>>) => {
      for (const [key, value] of Object.entries(entries)) {
        if (typeof value === 'string' && value !== '') this.values.set(key, { value, source });
      }
    };
    put('.env', dotenv);
    // A granted environment variable wins over `.env`, as dotenv itself does.
    for (const [key, value] of Object.entries(env)) {
      if (typeof value !== 'string' || value === '') continue;
      if (this.grantOf(key)) this.values.set(key, { value, source: 'environment' });
      else if (!this.values.has(key)) this.ungranted.add(key);
    }
    put('program', given);
  }

  /** The granted environment, the project's `.env` file (if any) and the program's own values. */
  static fromProject(projectDir: string, sources: Omit<SecretSources, 'dotenv'> = {}): SecretStore {
    let dotenv: Record<string, string> = {};
    try {
      dotenv = parse(readFileSync(envFilePath(projectDir)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return new SecretStore({ ...sources, dotenv });
  }

  /** The grant that names `key`: an exact name before any glob, globs in the order written. */
  private grantOf(key: string): KeyGrant | undefined {
    // Asked for each key of every call, and the grants never change: a glob's pattern is made once per key.
    let grant = this.grantsByKey.get(key);
    if (grant === undefined) {
      grant =
        this.grants.find((each) => each.pattern === key) ??
        this.grants.find((each) => each.pattern.includes('*') && globMatches(each.pattern, key)) ??
        null;
      this.grantsByKey.set(key, grant);
    }
    return grant ?? undefined;
  }

  access(key: string, namespace: string): KeyAccess {
    const grant = this.grantOf(key);
    const bound = grant?.namespaces;
    const known = this.values.get(key);
    if (known && (!bound || bound.includes(namespace))) return { granted: true, source: known.source };
    if (known && bound) {
      return {
        granted: false,
        reason: 'bound-elsewhere',
        fix: `security.keys: "${grant.pattern}": ${JSON.stringify([...bound, namespace])}`,
      };
    }
    if (this.ungranted.has(key))
      return { granted: false, reason: 'not-granted', fix: `security.keys: "${key}": ${JSON.stringify([namespace])}` };
    return { granted: false, reason: 'unset', fix: `${key}=... in .env` };
  }

  /** The value of `key` for a request of `namespace`; undefined unless granted to it. */
  valueFor(key: string, namespace: string): string | undefined {
    const known = this.values.get(key);
    if (!known) return undefined;
    const bound = this.grantOf(key)?.namespaces;
    return !bound || bound.includes(namespace) ? known.value : undefined;
  }

  /** The keys of `keys` that `namespace` may not use. */
  missing(keys: readonly string[], namespace: string): string[] {
    return keys.filter((key) => this.valueFor(key, namespace) === undefined);
  }

  /** A redactor for the keys one catalog declares: only their values are known to be secret. */
  redactorFor(keys: Iterable<string>): Redactor {
    const values = new Map<string, string>();
    for (const key of new Set(keys)) {
      const known = this.values.get(key);
      if (known) values.set(key, known.value);
    }
    return new Redactor(values);
  }
}

/** Where a route's template places keys: the URL (root, path, query), named headers, the body. */
export interface SecretSlots {
  url: ReadonlySet<string>;
  headers: ReadonlyMap<string, ReadonlySet<string>>;
  body: ReadonlySet<string>;
}

/** A request as the core sends it: URL, headers and the body as text. */
export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * One request's placeholder tokens: random per call, so neither a user argument nor a handler
 * can forge one, and a token copied anywhere but a declared slot stays a meaningless string.
 */
export class SecretTokens {
  private readonly nonce = randomNonce();

  /** Letters, digits and `_` only: the token survives URL and JSON encoding unchanged. */
  token(key: string): string {
    return `__secret_${key}_${this.nonce}__`;
  }

  /**
   * Puts key values into the declared slots of a request that preRequest may have changed.
   * `valueOf` answers only for keys granted to the schema's namespace; the caller sends the
   * result only to the schema's own origin, where the keys are bound (decision R4).
   */
  fill(request: OutgoingRequest, slots: SecretSlots, valueOf: (key: string) => string | undefined): OutgoingRequest {
    const headers: Record<string, string> = {};
    const given = request.headers;
    // Object.keys, not Object.entries: no pair is made per header on every call.
    for (const name of Object.keys(given)) {
      headers[name] = this.replace(
        given[name] as string,
        slots.headers.get(name.toLowerCase()),
        valueOf,
        encodeNothing,
      );
    }
    const filled: OutgoingRequest = { url: this.replace(request.url, slots.url, valueOf, encodeURIComponent), headers };
    if (request.body !== undefined) filled.body = this.replace(request.body, slots.body, valueOf, encodeJsonString);
    return filled;
  }

  private replace(
    text: string,
    keys: ReadonlySet<string> | undefined,
    valueOf: (key: string) => string | undefined,
    encode: (value: string) => string,
  ): string {
    if (!keys || keys.size === 0 || !text.includes(this.nonce)) return text;
    let result = text;
    for (const key of keys) {
      const value = valueOf(key);
      if (value !== undefined) result = replacedEvery(result, this.token(key), encode(value));
    }
    return result;
  }
}

/**
 * `text` with every `token` in it replaced by `value`, left to right, as replaceAll does, and
 * `$` in a value never read as a replacement pattern: a loop of indexOf, since replaceAll with a
 * callback (which kept `$` literal) calls back into JavaScript for every match.
 */
function replacedEvery(text: string, token: string, value: string): string {
  let at = text.indexOf(token);
  if (at === -1) return text;
  let result = '';
  let from = 0;
  while (at !== -1) {
    result += text.slice(from, at) + value;
    from = at + token.length;
    at = text.indexOf(token, from);
  }
  return result + text.slice(from);
}

const encodeNothing = (value: string): string => value;

/** Bytes of the nonces to come, filled from the system's generator a batch at a time (as randomUUID batches its own). */
const NONCE_BYTES = 16;
const NONCE_DIGITS = NONCE_BYTES * 2;
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
/** The batch's bytes as hex digits, written once per batch; each nonce is a slice of it. */
let nonceDigits = '';
let nonceAt = nonceDigits.length;

/**
 * 128 random bits as 32 hex digits. Taken from a batch written as hex by Buffer#toString, which
 * is native, once per 256 nonces (once per call, its JavaScript wrapper was about a microsecond
 * of a call while cold): randomUUID's formatting is JavaScript too, and its dashes had to be
 * taken out again.
 */
function randomNonce(): string {
  if (nonceAt === nonceDigits.length) {
    randomFillSync(noncePool);
    nonceDigits = noncePool.toString('hex');
    nonceAt = 0;
  }
  // Each nonce's digits are used once.
  const nonce = nonceDigits.slice(nonceAt, nonceAt + NONCE_DIGITS);
  nonceAt += NONCE_DIGITS;
  return nonce;
}

/** `*` matches any run of characters; everything else is literal. */
function globMatches(pattern: string, name: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(name);
}
