// The turn of a sandbox worker process (src/sandbox/process-turn.ts): one holder at a time, the
// others in the order they asked; the holder hears when someone waits (so a call that only waits
// on the network can give the turn up), and a release by a non-holder drops its wait.

import { describe, expect, it } from 'vitest';
import { ProcessTurn } from '../../src/sandbox/process-turn.js';

describe('ProcessTurn', () => {
  it('hands the turn on in the order it was asked for', async () => {
    const turn = new ProcessTurn();
    const [a, b, c] = [{}, {}, {}];
    const order: string[] = [];
    await turn.take(a);
    const waits = [turn.take(b).then(() => order.push('b')), turn.take(c).then(() => order.push('c'))];
    expect(turn.wanted).toBe(true);
    turn.release(a);
    await waits[0];
    expect(turn.holds(b)).toBe(true);
    turn.release(b);
    await waits[1];
    turn.release(c);
    expect(order).toEqual(['b', 'c']);
    expect(turn.wanted).toBe(false);
  });

  it('tells the holder, and only the holder, that someone waits', async () => {
    const turn = new ProcessTurn();
    const [holder, stale, waiter] = [{}, {}, {}];
    let told = 0;
    turn.onContended(stale, () => (told += 100));
    await turn.take(holder);
    turn.onContended(holder, () => (told += 1));
    void turn.take(waiter);
    expect(told).toBe(1);
  });

  it('a release by one that does not hold the turn drops its wait and changes nothing else', async () => {
    const turn = new ProcessTurn();
    const [holder, gaveUp, next] = [{}, {}, {}];
    await turn.take(holder);
    let gaveUpStarted = false;
    void turn.take(gaveUp).then(() => (gaveUpStarted = true));
    const nextStarts = turn.take(next);
    turn.release(gaveUp);
    expect(turn.holds(holder)).toBe(true);
    turn.release(holder);
    await nextStarts;
    expect(turn.holds(next)).toBe(true);
    expect(gaveUpStarted).toBe(false);
  });
});
