// The jobs waiting for a sandbox worker process, in order. Each waits at most its start bound:
// a job that no process has started by then fails, so a process that keeps restarting, or one
// kept busy by the jobs before it, never holds a caller without bound. A job sent ahead (it
// waits in the process's own inbox behind the job running there) keeps its bound until the
// process starts it. While a process that had been ready is replaced (another job missed its
// deadline, ran out of memory or killed it), the bounds stand still (`pause`): how long the new
// process takes to start depends on the machine's load, not on the jobs waiting, and a fixed
// allowance for it failed a calm schema's call behind a hostile one on a loaded machine.

import type { Command, Failure, Reply, UnitSpec } from './protocol.js';
import { REPLACEMENT_START_WAIT_MS } from './sandbox-options.js';

export interface Job {
  command: Command;
  /** The unit a load or call belongs to: what a new process must import and load before it. */
  spec?: UnitSpec;
  settle: (reply: Reply | Failure) => void;
}

/** A waiting job's start bound: its length and when it passes (epoch ms); while paused, the time it has left instead of a timer. */
interface StartBound {
  waitMs: number;
  at: number;
  timer: NodeJS.Timeout | null;
  leftMs: number;
}

export class JobQueue {
  private readonly jobs: Job[] = [];
  /** The start bound of each job that waits, queued or sent ahead. */
  private readonly bounds = new Map<Job, StartBound>();
  /** Jobs taken by `shiftAhead` that the process has not started yet. */
  private readonly ahead = new Set<Job>();
  /** While the bounds stand still: the timer that lets them run again after the most a pause may last. */
  private pausedUpTo: NodeJS.Timeout | null = null;

  /**
   * @param expired called for a job whose start bound passed, after it has left the queue;
   * `sentAhead` when it had left it already, sent ahead to the process.
   */
  constructor(private readonly expired: (job: Job, waitedMs: number, sentAhead: boolean) => void) {}

  get length(): number {
    return this.jobs.length;
  }

  /** Adds a job at the back, or at the front (a job that must go before the others), with its start bound. */
  add(job: Job, waitMs: number, front = false): void {
    this.started(job);
    const bound: StartBound = { waitMs, at: Date.now() + waitMs, timer: null, leftMs: waitMs };
    this.bounds.set(job, bound);
    if (!this.pausedUpTo) this.count(job, bound);
    if (front) this.jobs.unshift(job);
    else this.jobs.push(job);
  }

  /** The first job; it no longer waits to start. */
  shift(): Job {
    const job = this.jobs.shift() as Job;
    this.started(job);
    return job;
  }

  /**
   * The jobs at the front that `wanted` accepts, up to the first it does not. A job it cannot
   * judge (it throws) stays at the front: it fails on its own turn, not with the jobs taken here.
   */
  shiftWhile(wanted: (job: Job) => boolean): Job[] {
    const taken: Job[] = [];
    while (this.jobs.length > 0 && accepts(wanted, this.jobs[0] as Job)) taken.push(this.shift());
    return taken;
  }

  /** Like `shiftWhile`, at most `max` jobs, each keeping its start bound until `started`. */
  shiftAhead(wanted: (job: Job) => boolean, max: number): Job[] {
    const taken: Job[] = [];
    while (taken.length < max && this.jobs.length > 0 && accepts(wanted, this.jobs[0] as Job)) {
      const job = this.jobs.shift() as Job;
      this.ahead.add(job);
      taken.push(job);
    }
    return taken;
  }

  /**
   * A job taken by `shiftAhead` that its process never started (the process was replaced) goes
   * back to the front with the start bound it was queued with: a new process gives it no more time.
   */
  putBack(job: Job): void {
    this.ahead.delete(job);
    this.jobs.unshift(job);
  }

  /** When `job` must have started by (epoch ms), while it waits. */
  bound(job: Job): number | undefined {
    return this.bounds.get(job)?.at;
  }

  /** The process starts `job`: it no longer waits. */
  started(job: Job): void {
    const bound = this.bounds.get(job);
    if (bound?.timer) clearTimeout(bound.timer);
    this.bounds.delete(job);
    this.ahead.delete(job);
  }

  /**
   * The start bounds stand still until `resume`, or for `mostMs` at the most (a new process that
   * never says it is ready must not hold its callers without bound). A job added meanwhile waits
   * with its bound whole until then.
   */
  pause(mostMs = REPLACEMENT_START_WAIT_MS): void {
    if (this.pausedUpTo) return;
    const now = Date.now();
    for (const bound of this.bounds.values()) {
      if (bound.timer) clearTimeout(bound.timer);
      bound.timer = null;
      bound.leftMs = Math.max(0, bound.at - now);
    }
    this.pausedUpTo = setTimeout(() => this.resume(), mostMs);
  }

  /** The start bounds run again, each with the time it had left when they stopped. */
  resume(): void {
    if (!this.pausedUpTo) return;
    clearTimeout(this.pausedUpTo);
    this.pausedUpTo = null;
    const now = Date.now();
    for (const [job, bound] of this.bounds) {
      bound.at = now + bound.leftMs;
      this.count(job, bound);
    }
  }

  /** Empties the queue, failing every job in it. */
  failAll(failure: Failure): void {
    clearTimeout(this.pausedUpTo ?? undefined);
    this.pausedUpTo = null;
    for (const job of this.jobs.splice(0)) {
      this.started(job);
      job.settle(failure);
    }
  }

  private count(job: Job, bound: StartBound): void {
    bound.timer = setTimeout(() => this.expire(job, bound.waitMs), bound.at - Date.now());
  }

  private expire(job: Job, waitMs: number): void {
    const index = this.jobs.indexOf(job);
    const sentAhead = this.ahead.has(job);
    if (index < 0 && !sentAhead) return;
    if (index >= 0) this.jobs.splice(index, 1);
    this.started(job);
    this.expired(job, waitMs, sentAhead);
  }
}

function accepts(wanted: (job: Job) => boolean, job: Job): boolean {
  try {
    return wanted(job);
  } catch {
    // A predicate that throws wants no job: the job stays queued for another taker.
    return false;
  }
}
