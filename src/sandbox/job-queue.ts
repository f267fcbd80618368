// The jobs waiting for a sandbox worker process, in order. Each waits at most its start bound:
// a job that no process has started by then fails, so a process that keeps restarting, or one
// kept busy by the jobs before it, never holds a caller without bound. A job sent ahead (it
// waits in the process's own inbox behind the job running there) keeps its bound until the
// process starts it.

import type { Command, Failure, Reply, UnitSpec } from './protocol.js';

export interface Job {
  command: Command;
  /** The unit a load or call belongs to: what a new process must import and load before it. */
  spec?: UnitSpec;
  settle: (reply: Reply | Failure) => void;
}

export class JobQueue {
  private readonly jobs: Job[] = [];
  private readonly startBy = new Map<Job, NodeJS.Timeout>();
  /** Each waiting job's start bound, as a time (epoch ms): a job sent ahead carries it to the process. */
  private readonly boundAt = new Map<Job, number>();
  /** Jobs taken by `shiftAhead` that the process has not started yet. */
  private readonly ahead = new Set<Job>();

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
    this.boundAt.set(job, Date.now() + waitMs);
    this.startBy.set(
      job,
      setTimeout(() => this.expire(job, waitMs), waitMs),
    );
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
    return this.boundAt.get(job);
  }

  /** The process starts `job`: it no longer waits. */
  started(job: Job): void {
    clearTimeout(this.startBy.get(job));
    this.startBy.delete(job);
    this.boundAt.delete(job);
    this.ahead.delete(job);
  }

  /** Empties the queue, failing every job in it. */
  failAll(failure: Failure): void {
    for (const job of this.jobs.splice(0)) {
      this.started(job);
      job.settle(failure);
    }
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
