// The start bounds of the jobs waiting for a sandbox process, on fake timers: each passes once,
// and while a replaced process starts they stand still, for a bounded time at the most.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Job, JobQueue } from '../../src/sandbox/job-queue.js';

const job = (): Job => ({
  command: { kind: 'call', unit: 'u', route: 'r', hook: 'preRequest', input: {} },
  settle: () => {},
});

let expired: Array<{ job: Job; waitedMs: number }>;
let queue: JobQueue;

beforeEach(() => {
  vi.useFakeTimers();
  expired = [];
  queue = new JobQueue((job, waitedMs) => expired.push({ job, waitedMs }));
});
afterEach(() => vi.useRealTimers());

/** The queue, its bounds standing still for `ms` in all at the most. */
function stillFor(ms: number): void {
  queue = new JobQueue((job, waitedMs) => expired.push({ job, waitedMs }), ms);
}

describe('a start bound', () => {
  it('passes once, for a job still waiting, with the length it was given', () => {
    const started = job();
    const waiting = job();
    queue.add(started, 100);
    queue.add(waiting, 100);
    expect(queue.shift()).toBe(started);
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(expired).toEqual([{ job: waiting, waitedMs: 100 }]);
    expect(queue.length).toBe(0);
  });

  it('stands still while paused, and runs on with the time it had left', () => {
    stillFor(10_000);
    const waiting = job();
    queue.add(waiting, 100);
    vi.advanceTimersByTime(60);
    queue.pause();
    vi.advanceTimersByTime(5_000);
    expect(expired).toEqual([]);
    queue.resume();
    vi.advanceTimersByTime(39);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual([{ job: waiting, waitedMs: 100 }]);
  });

  it('of a job added while paused starts whole when the pause ends', () => {
    stillFor(10_000);
    queue.pause();
    const added = job();
    queue.add(added, 100);
    vi.advanceTimersByTime(500);
    queue.resume();
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual([{ job: added, waitedMs: 100 }]);
  });

  it('stands still for the most a pause may last, then runs on without a resume (a process that never gets ready)', () => {
    stillFor(1_000);
    const waiting = job();
    queue.add(waiting, 100);
    queue.pause();
    vi.advanceTimersByTime(1_099);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual([{ job: waiting, waitedMs: 100 }]);
  });

  it('of a job sent ahead and put back keeps the time it had left, paused or not', () => {
    stillFor(10_000);
    const ahead = job();
    queue.add(ahead, 100);
    expect(queue.shiftAhead(() => true, 1)).toEqual([ahead]);
    vi.advanceTimersByTime(70);
    queue.pause();
    queue.putBack(ahead);
    vi.advanceTimersByTime(1_000);
    queue.resume();
    vi.advanceTimersByTime(29);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual([{ job: ahead, waitedMs: 100 }]);
  });

  it('stands still for 30 s in all over every pause: a process replaced again and again holds no job longer', () => {
    // A handler that runs out of memory at once gets its process replaced call after call; each
    // replacement's start would otherwise stand the bounds of the jobs behind it still anew.
    const waiting = job();
    queue.add(waiting, 1_000);
    queue.pause();
    vi.advanceTimersByTime(20_000);
    queue.resume();
    vi.advanceTimersByTime(100);
    queue.pause();
    vi.advanceTimersByTime(10_899);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual([{ job: waiting, waitedMs: 1_000 }]);
  });

  it('of a failed queue is gone, and so is a pause: nothing fires later', () => {
    stillFor(1_000);
    const failed: unknown[] = [];
    queue.add({ ...job(), settle: (reply) => failed.push(reply) }, 100);
    queue.pause();
    queue.failAll({ code: 'SEC107', message: 'closed' });
    expect(failed).toEqual([{ code: 'SEC107', message: 'closed' }]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
