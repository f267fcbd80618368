// The jobs waiting for a sandbox worker process, in order. Each waits at most its start bound:
// a job that no process has started by then fails, so a process that keeps restarting, or one
// kept busy by the jobs before it, never holds a caller without bound. A job sent ahead (it
// waits in the process's own inbox behind the job running there) keeps its bound until the
// process starts it. While a process that had been ready is replaced (another job missed its
// deadline, ran out of memory or killed it), the bounds stand still (`pause`): how long the new
// process takes to start depends on the machine's load, not on the jobs waiting, and a fixed
// allowance for it failed a calm schema's call behind a hostile one on a loaded machine. A job's
// bound stands still for REPLACEMENT_START_WAIT_MS in all, over every replacement it waits through:
// a handler that gets its process replaced at once (out of memory in a few milliseconds), call
// after call, would otherwise hold the calls queued behind its own for a start each, without bound.

import type { Command, Failure, Reply, UnitSpec } from './protocol.js';
import { REPLACEMENT_START_WAIT_MS } from './sandbox-options.js';

export interface Job {
  command: Command;
  /** The unit a load or call belongs to: what a new process must import and load before it. */
  spec?: UnitSpec;
  settle: (reply: Reply | Failure) => void;
}

/**
 * A waiting job's start bound: its length and when it passes (epoch ms). While the bounds stand
 * still, `at` is moved on by what the job may still stand (`standing.mostMs`): past that, its time
 * runs again without a resume; `resume` takes back what it did not stand.
 */
interface StartBound {
  waitMs: number;
  at: number;
  timer: NodeJS.Timeout | null;
  /** How long this bound has stood still in all, over every pause. */
  stoodMs: number;
  standing: { since: number; mostMs: number } | null;
}

export class JobQueue {
  private readonly jobs: Job[] = [];
  /** The start bound of each job that waits, queued or sent ahead. */
  private readonly bounds = new Map<Job, StartBound>();
  /** Jobs taken by `shiftAhead` that the process has not started yet. */
  private readonly ahead = new Set<Job>();
  /** Whether the bounds stand still (a replacement process is starting). */
  private paused = false;

  /**
   * @param expired called for a job whose start bound passed, after it has left the queue;
   * `sentAhead` when it had left it already, sent ahead to the process.
   * @param stillAtMostMs how long a job's bound may stand still in all, over every pause.
   */
  constructor(
    private readonly expired: (job: Job, waitedMs: number, sentAhead: boolean) => void,
    private readonly stillAtMostMs = REPLACEMENT_START_WAIT_MS,
  ) {}

  get length(): number {
    return this.jobs.length;
  }

  /** Adds a job at the back, or at the front (a job that must go before the others), with its start bound. */
  add(job: Job, waitMs: number, front = false): void {
    this.started(job);
    const now = Date.now();
    const bound: StartBound = { waitMs, at: now + waitMs, timer: null, stoodMs: 0, standing: null };
    this.bounds.set(job, bound);
    if (this.paused) this.stand(bound, now);
    this.count(job, bound);
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
   * The start bounds stand still until `resume`, each for what is left of its `stillAtMostMs` at
   * the most (a new process that never says it is ready, or one replaced again and again, must
   * not hold its callers without bound). A job added meanwhile stands still from then.
   */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    const now = Date.now();
    for (const [job, bound] of this.bounds) {
      this.stand(bound, now);
      this.count(job, bound);
    }
  }

  /** The start bounds run again, each with the time it had left when it began to stand still. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    const now = Date.now();
    for (const [job, bound] of this.bounds) {
      if (!bound.standing) continue;
      const stood = Math.min(now - bound.standing.since, bound.standing.mostMs);
      bound.stoodMs += stood;
      bound.at -= bound.standing.mostMs - stood;
      bound.standing = null;
      this.count(job, bound);
    }
  }

  /** Empties the queue, failing every job in it. */
  failAll(failure: Failure): void {
    this.paused = false;
    for (const job of this.jobs.splice(0)) {
      this.started(job);
      job.settle(failure);
    }
  }

  /** `bound` stands still from `now`: it passes later by what it may still stand. */
  private stand(bound: StartBound, now: number): void {
    const mostMs = Math.max(0, this.stillAtMostMs - bound.stoodMs);
    bound.standing = { since: now, mostMs };
    bound.at += mostMs;
  }

  /** (Re)sets `bound`'s timer to when it passes. */
  private count(job: Job, bound: StartBound): void {
    if (bound.timer) clearTimeout(bound.timer);
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
