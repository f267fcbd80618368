// Inside a sandbox worker: which of the host's requests the running code belongs to. Each request
// (an import, a load, a hook call) runs in its own async context, which Node carries through
// promises, timers and library callbacks (AsyncLocalStorage; it holds under SES lockdown, and
// handler code, confined to its Compartment, cannot reach it). Whatever code does later, a
// bridged request or a network attempt is charged to the request that started that code, never
// to whichever request happens to run then: work one call leaves behind (a library's retry
// loop, a detached fetch) cannot act in, or fail, another call.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { Hook } from './protocol.js';

export interface Job {
  /** The host's request id. */
  id: number;
  /** The unit a hook call runs for; null for imports and loads of no unit. */
  unit: string | null;
  /** The hook a call runs; null for imports and loads. */
  hook: Hook | null;
  /** Network attempts refused while the request ran: any fails it (SEC100). */
  attempts: number;
  /** The host has its answer: what its code still does is refused and charged to no one. */
  ended: boolean;
  /** Whether the host has been told, once, that this ended request's code still tries. */
  toldLate: boolean;
  /** Bridged requests sent and not answered: refused when the job ends. */
  readonly waiting: Set<number>;
}

const jobs = new AsyncLocalStorage<Job>();

export function newJob(id: number, unit: string | null, hook: Hook | null): Job {
  return { id, unit, hook, attempts: 0, ended: false, toldLate: false, waiting: new Set() };
}

/** Runs `work`, and everything it starts, as `job`. */
export function runAs<T>(job: Job, work: () => Promise<T>): Promise<T> {
  return jobs.run(job, work);
}

/** Runs `work` as the worker's own code, outside every job: what it schedules is no job's (timer-guard.ts). */
export function outsideJobs<T>(work: () => T): T {
  return jobs.exit(work);
}

/** The job the running code belongs to; none for the worker's own code outside every request. */
export function currentJob(): Job | undefined {
  return jobs.getStore();
}
