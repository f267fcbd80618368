// The kept introspection answers on a stepped clock: how long an entry lasts (the bound, or the
// token's exp when earlier), 0 keeping none, the bound in entries, and no token in anything printable.

import { inspect } from 'node:util';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IntrospectionCache } from '../../src/access/introspection-cache.js';

const CALLER = { subject: 'alice', client: 'app', scopes: ['tools:call'], groups: [] };
const T0 = 1_800_000_000_000;

function cache(options: { seconds?: number; maxEntries?: number } = {}) {
  const clock = { now: T0 };
  return { clock, kept: new IntrospectionCache({ ...options, now: () => clock.now }) };
}

describe('an introspection answer kept', () => {
  it('lasts the default bound (60 s) for a token with a later exp, then is asked about again', () => {
    const { clock, kept } = cache();
    kept.keep('token-a', CALLER, T0 / 1000 + 3600);
    clock.now = T0 + 59_999;
    expect(kept.get('token-a')).toEqual(CALLER);
    clock.now = T0 + 60_000;
    expect(kept.get('token-a')).toBeUndefined();
  });

  it("lasts until the token's exp when that is earlier than the bound, and not at all once it has passed", () => {
    const { clock, kept } = cache({ seconds: 300 });
    kept.keep('token-a', CALLER, T0 / 1000 + 10);
    kept.keep('token-b', CALLER, T0 / 1000 - 1);
    expect(kept.get('token-b')).toBeUndefined();
    clock.now = T0 + 9_999;
    expect(kept.get('token-a')).toEqual(CALLER);
    clock.now = T0 + 10_000;
    expect(kept.get('token-a')).toBeUndefined();
  });

  it('lasts the bound for an answer without exp', () => {
    const { clock, kept } = cache({ seconds: 5 });
    kept.keep('token-a', CALLER, undefined);
    clock.now = T0 + 4_999;
    expect(kept.get('token-a')).toEqual(CALLER);
    clock.now = T0 + 5_000;
    expect(kept.get('token-a')).toBeUndefined();
  });

  it('is never kept with seconds 0', () => {
    const { kept } = cache({ seconds: 0 });
    kept.keep('token-a', CALLER, T0 / 1000 + 3600);
    expect(kept.get('token-a')).toBeUndefined();
  });

  it('goes first when more tokens than the bound in entries are kept, the least recently used first', () => {
    const { kept } = cache({ maxEntries: 2 });
    kept.keep('token-a', CALLER, undefined);
    kept.keep('token-b', CALLER, undefined);
    expect(kept.get('token-a')).toEqual(CALLER);
    kept.keep('token-c', CALLER, undefined);
    expect([kept.get('token-a'), kept.get('token-b'), kept.get('token-c')]).toEqual([CALLER, undefined, CALLER]);
  });

  it('is found by the token’s SHA-256: the token itself is in nothing the cache prints', () => {
    const { kept } = cache();
    const token = 'opaque-token-0123456789abcdefghijklmnop';
    kept.keep(token, CALLER, undefined);
    expect(inspect(kept, { depth: 10, showHidden: true })).not.toContain(token);
    // Its keys (lru-cache holds them in private fields, which inspect does not show).
    const entries = (kept as unknown as { entries: { keys(): Iterable<string> } }).entries;
    expect([...entries.keys()]).toEqual([createHash('sha256').update(token).digest('hex')]);
  });
});

describe('the kept answers in bytes', () => {
  // An introspection answer may be 256 KiB (MAX_ANSWER_BYTES), all of it a scope or groups claim the
  // caller keeps: 10,000 such entries would hold gigabytes. The claims kept are bounded in total.
  it('let the first of many large callers go, however few entries they are', () => {
    const { kept } = cache();
    const large = (i: number) => ({
      ...CALLER,
      scopes: [`${'s'.repeat(128 * 1024)}${i}`],
      groups: [`${'g'.repeat(128 * 1024)}${i}`],
    });
    for (let i = 0; i < 100; i++) kept.keep(`token-${i}`, large(i), undefined);
    expect(kept.get('token-0')).toBeUndefined();
    expect(kept.get('token-99')).toEqual(large(99));
  });

  it('keep a small caller beside them', () => {
    const { kept } = cache();
    kept.keep('token-small', CALLER, undefined);
    expect(kept.get('token-small')).toEqual(CALLER);
  });
});
