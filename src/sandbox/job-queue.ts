// The jobs waiting for a sandbox worker process, in order. Each waits at most its start bound:
// a job that no process has started by then fails, so a process that keeps restarting, or one
// kept busy by the jobs before it, never holds a caller without bound.

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

  /** @param expired called for a job whose start bound passed, after it has left the queue. */
  constructor(private readonly expired: (job: Job, waitedMs: number) => void) {}

  get length(): number {
    return this.jobs.length;
  }

  /** Adds a job at the back, or at the front (a job that must go before the others), with its start bound. */
  add(job: Job, waitMs: number, front = false): void {
    this.startBy.set(job, setTimeout(() => this.expire(job, waitMs), waitMs));
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

  /** Empties the queue, failing every job in it. */
  failAll(failure: Failure): void {
    for (const job of this.jobs.splice(0)) {
      this.started(job);
      job.settle(failure);
    }
  }

  private started(job: Job): void {
    clearTimeout(this.startBy.get(job));
    this.startBy.delete(job);
  }

  private expire(job: Job, waitMs: number): void {
    const index = this.jobs.indexOf(job);
    if (index < 0) return;
    this.jobs.splice(index, 1);
    this.startBy.delete(job);
    this.expired(job, waitMs);
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
