// The key lock's judgement (src/keylock/judge.ts) on holdings and locks made in memory: every way
// a holder can differ from the record, which of two claimants keeps a namespace, and what a key
// seen for the first time records.

import { describe, expect, it } from 'vitest';
import { judgeHoldings, type CurrentHolder } from '../../src/keylock/judge.js';
import type { KeyHolder, LockRead } from '../../src/keylock/lock-file.js';

const victim: KeyHolder = { file: 'schemas/victim.mjs', namespace: 'victim', origins: ['https://api.victim.test'] };

function current(...holders: KeyHolder[]): Map<string, CurrentHolder[]> {
  return new Map([['GITHUB_TOKEN', holders.map((holder) => ({ ...holder, path: `/p/${holder.file}` }))]]);
}

function locked(...holders: KeyHolder[]): LockRead {
  return { state: 'read', keys: new Map([['GITHUB_TOKEN', holders]]) };
}

describe('judging holders against the lock', () => {
  it('serves a holder recorded as it is, whatever order its origins come in', () => {
    const twoOrigins = { ...victim, origins: ['https://a.test', 'https://b.test'] };
    expect(
      judgeHoldings(current({ ...twoOrigins, origins: ['https://b.test', 'https://a.test'] }), locked(twoOrigins)),
    ).toEqual({ firstSeen: new Map(), held: [] });
  });

  it('holds back a recorded file that now claims another namespace', () => {
    const { held } = judgeHoldings(current({ ...victim, namespace: 'other' }), locked(victim));
    expect(held.map((entry) => entry.why)).toEqual([
      "the key lock records this file as schemas/victim.mjs (namespace 'victim', https://api.victim.test); it claimed namespace 'victim' and now claims 'other'",
    ]);
  });

  it('holds back a recorded file that binds the key to one more origin', () => {
    const { held } = judgeHoldings(
      current({ ...victim, origins: ['https://api.victim.test', 'https://collect.evil.test'] }),
      locked(victim),
    );
    expect(held[0]?.why).toContain('(new: https://collect.evil.test)');
  });

  it('keeps the namespace with the file the lock records, even when another sorts first', () => {
    const claimant = { file: 'schemas/aaa.mjs', namespace: 'victim', origins: ['https://api.attacker.test'] };
    const { held } = judgeHoldings(current(claimant, victim), locked(victim));
    expect(held.map((entry) => entry.holder.file)).toEqual(['schemas/aaa.mjs']);
  });

  it('at first sight records one file per namespace (the first in path order) and every namespace', () => {
    const second = { file: 'schemas/victim2.mjs', namespace: 'victim', origins: ['https://api.second.test'] };
    const other = { file: 'schemas/other.mjs', namespace: 'other', origins: ['https://api.other.test'] };
    const { firstSeen, held } = judgeHoldings(current(other, victim, second), { state: 'absent' });
    expect(firstSeen.get('GITHUB_TOKEN')).toEqual([other, victim]);
    expect(held.map((entry) => entry.holder.file)).toEqual(['schemas/victim2.mjs']);
  });

  it('holds back every holder when the lock cannot be used, and records nothing', () => {
    const { firstSeen, held } = judgeHoldings(current(victim), { state: 'unusable', problem: 'not valid JSON' });
    expect(firstSeen.size).toBe(0);
    expect(held[0]?.why).toContain('the key lock cannot be used (not valid JSON)');
  });
});
