// The response cache: wraps a whole tool call, after its arguments are checked
// (seam 4). A call of a cacheable tool (policy.ts) whose key (cache-key.ts) has a live entry is
// answered from it and sends nothing upstream; otherwise the call runs and its answer is stored
// for the tool's lifetime when it succeeded, its upstream did not forbid keeping it
// (cache-control.ts) and it wrote nothing. What is stored is the call's final result, after
// postRequest and redaction (the alternative the spec allows, AMBIG-27): a hit runs no handler
// and holds no key value. The entries live in a SharedState (memory by default, Redis for
// replicas); a store that fails makes a miss, never a failed call.

import type { CacheConfig } from '../config/project.js';
import type { Decoded } from '../http/decode.js';
import { brokenBound } from '../shared/raw.js';
import type { SharedState } from '../state/shared-state.js';
import { mayStore } from './cache-control.js';
import { cacheKey, toolIdentity, type KeyValueOf } from './cache-key.js';
import { cachePolicy, type CacheableTool, type CachePolicy } from './policy.js';

/** How a call met the cache: answered from it, stored or looked up without an entry, or not cacheable. */
export type CacheOutcome = 'hit' | 'miss' | 'none';

/** The part of the shared state the cache uses. */
export type CacheStore = Pick<SharedState, 'cacheGet' | 'cacheSet'>;

/** A successful answer as the cache keeps and returns it. */
export interface CachedAnswer {
  ok: true;
  status: number;
  content: Decoded;
}

/**
 * What the cache reads of a fresh result (the call pipeline's results fit it): a successful
 * answer with the methods and statuses of the requests it made and the upstream's `Cache-Control` values.
 */
export type FreshResult =
  | (CachedAnswer & { requests?: readonly { method: string; status: number }[]; cacheControl?: readonly string[] })
  | { ok: true; dryRun: unknown }
  | { ok: false };

/** A fresh result as the caller gets it: without the `Cache-Control` values, which are the cache's alone. */
export type Handed<R> = R extends { cacheControl: unknown } ? Omit<R, 'cacheControl'> : R;

/** Methods that read: an answer of a call that sent anything else is not kept, unless its route declared itself read-only. */
const READING_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

export interface ResponseCacheOptions {
  store: CacheStore;
  config: CacheConfig;
  /** The value of a declared key for a namespace: entries are bound to a fingerprint of them. */
  keyValue: KeyValueOf;
  /**
   * Deepest nesting of a JSON answer kept or served (`http.maxJsonDepth`, decoding's bound): a
   * deeper one read back from the store was written by no decoding, and everything that writes a
   * result out (the MCP answer, JSON.stringify) recurses through it and fails the call, on every
   * hit for the entry's lifetime.
   */
  maxDepth: number;
}

export class ResponseCache {
  /** Per tool, computed on its first call: whether and how long it is cached, and its part of the key. */
  private readonly tools = new WeakMap<CacheableTool, { policy: CachePolicy; identity: string } | null>();

  constructor(private readonly options: ResponseCacheOptions) {}

  /**
   * Runs `run` (the call with the checked `args`) unless the cache has its answer. The result's
   * `cacheControl` is the cache's alone and is taken off before the result is handed back.
   */
  through<R extends FreshResult>(
    tool: CacheableTool,
    args: Record<string, unknown>,
    { dryRun, cache }: { dryRun?: boolean; cache?: boolean },
    run: () => Promise<R>,
  ): Promise<{ result: Handed<R> | CachedAnswer; cache: CacheOutcome }> {
    // A dry run sends nothing to keep; `cache: false` asks for the API's own answer.
    const cached = dryRun || cache === false ? null : this.entryOf(tool);
    // Most tools are not cached: their call's promise is handed on, with no async step around it.
    if (!cached) return run().then(notCached);
    return this.throughEntry(cached, args, run);
  }

  private async throughEntry<R extends FreshResult>(
    cached: { policy: CachePolicy; identity: string },
    args: Record<string, unknown>,
    run: () => Promise<R>,
  ): Promise<{ result: Handed<R> | CachedAnswer; cache: CacheOutcome }> {
    const key = cacheKey(cached.identity, args);
    const hit = await this.lookup(key);
    if (hit) return { result: hit, cache: 'hit' };
    const result = await run();
    if (this.mayKeep(result, cached.policy)) this.keep(key, result, cached.policy.ttlSeconds * 1000);
    return { result: withoutCacheControl(result), cache: 'miss' };
  }

  private entryOf(tool: CacheableTool): { policy: CachePolicy; identity: string } | null {
    let entry = this.tools.get(tool);
    if (entry === undefined) {
      const policy = cachePolicy(tool, this.options.config);
      entry = policy ? { policy, identity: toolIdentity(tool, this.options.keyValue) } : null;
      this.tools.set(tool, entry);
    }
    return entry;
  }

  /** The live entry under `key`; null when there is none, or the store failed or holds something unreadable. */
  private async lookup(key: string): Promise<CachedAnswer | null> {
    let text: string | null;
    try {
      text = await this.options.store.cacheGet(key);
    } catch {
      // A store that fails is a miss (ResilientState falls back to memory by itself): the call goes upstream.
      return null;
    }
    if (text === null) return null;
    try {
      const { status, content } = JSON.parse(text) as { status?: unknown; content?: unknown };
      if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599) return null;
      return isDecoded(content) && !this.tooDeep(content) ? { ok: true, status: status as number, content } : null;
    } catch {
      // A stored entry that is not ours (changed by hand, another version) is a miss, never an answer.
      return null;
    }
  }

  private mayKeep(result: FreshResult, policy: CachePolicy): result is Extract<FreshResult, { content: Decoded }> {
    if (!result.ok || !('content' in result)) return false;
    if (!mayStore(result.cacheControl ?? [])) return false;
    const requests = result.requests ?? [];
    // A handler may make an answer of a request that failed (an error status read as data, a
    // refusal caught): kept, it would pin the upstream's passing failure for the whole lifetime.
    if (!requests.every((request) => request.status >= 200 && request.status < 300)) return false;
    return policy.declaredReadOnly || requests.every((request) => READING_METHODS.has(request.method));
  }

  /** Whether a JSON answer nests deeper than decoding reads any: walked without recursion. */
  private tooDeep(content: Decoded): boolean {
    return content.kind === 'json' && brokenBound(content.value, { maxDepth: this.options.maxDepth }) !== null;
  }

  /** Stored without waiting: the caller has its answer, and a store that fails only costs a later miss. */
  private keep(key: string, { status, content }: CachedAnswer, ttlMs: number): void {
    // A handler's answer nested deeper than the bound would only be a miss when read back.
    if (this.tooDeep(content)) return;
    let text: string;
    try {
      text = JSON.stringify({ status, content });
    } catch {
      // An answer JSON cannot write (a BigInt, a cycle) is not kept; the caller has it already.
      return;
    }
    this.options.store.cacheSet(key, text, ttlMs).catch(() => undefined);
  }
}

function notCached<R extends FreshResult>(result: R): { result: Handed<R>; cache: CacheOutcome } {
  return { result: withoutCacheControl(result), cache: 'none' };
}

function withoutCacheControl<R extends FreshResult>(result: R): Handed<R> {
  if (!('cacheControl' in result)) return result as Handed<R>;
  const { cacheControl: _cacheControl, ...rest } = result;
  return rest as Handed<R>;
}

/**
 * Whether a stored content is one decodeBody could have made: a record cut, edited by hand or
 * written by another version that merely names a kind would be handed to the client as an answer.
 */
function isDecoded(content: unknown): content is Decoded {
  if (typeof content !== 'object' || content === null) return false;
  const entry = content as Record<string, unknown>;
  switch (entry.kind) {
    case 'json':
      return Object.hasOwn(entry, 'value');
    case 'text':
      return typeof entry.value === 'string';
    case 'image':
    case 'binary':
      return typeof entry.mimeType === 'string' && typeof entry.base64 === 'string';
    case 'empty':
      return true;
    default:
      return false;
  }
}
