// The sandbox's settings and the bounds and timings its supervisors keep, in one place.

import type { SandboxEventListener } from './events.js';
import type { Failure } from './protocol.js';
import { CONFIG_DEFAULTS } from '../config/defaults.js';

export interface SandboxOptions {
  /** Worker processes; default: one core fewer than the machine has (the host keeps one), 1 to 4. */
  size?: number;
  /** Deadline of a factory or handler call, in milliseconds. */
  deadlineMs?: number;
  /** V8 heap limit of each worker process, in MiB; its resident memory may reach 2 × this + 128 MiB. */
  memoryMb?: number;
  /** Told when a worker process stops or is replaced; default: one line on stderr. */
  onEvent?: SandboxEventListener;
  /**
   * An executeRequest call's time waiting on the core's requests does not count against its
   * deadline; the whole call is bounded by the deadline plus this, in milliseconds.
   */
  bridgeAllowanceMs?: number;
}

export const DEFAULT_DEADLINE_MS = CONFIG_DEFAULTS.sandbox.deadlineMs;
export const DEFAULT_MEMORY_MB = CONFIG_DEFAULTS.sandbox.memoryMb;
export const DEFAULT_BRIDGE_ALLOWANCE_MS = 30_000;
/** Importing a library (ethers takes about half a second) is not the schema's time. */
export const IMPORT_DEADLINE_MS = 30_000;
export const RSS_POLL_MS = 50;
/**
 * Calls sent to a worker ahead of the one it runs, while no executeRequest call is parked there
 * (one while one is: its answers wait behind them). At 50 calls in flight the host's queue was ten
 * or more deep nearly every time one could be sent, and with one ahead the worker waited for the
 * host, busy with the calls' HTTP, to hand over the next.
 */
export const MOST_AHEAD = 8;
/** How long the host polls for a reply before it sleeps; most handler calls answer well within. */
export const REPLY_POLL_MS = 2;
/**
 * How long a job may wait for a worker process to start it, beyond its own deadline: a new
 * process takes a few hundred milliseconds to start (SES lockdown), more on a loaded machine, and
 * that is not the call's fault. A load waits longer: its libraries may have to be imported first.
 * The start of a process replacing one that had been ready is not counted at all (job-queue.ts, `pause`).
 */
export const START_ALLOWANCE_MS = 2000;
export const LOAD_START_WAIT_MS = 30_000;
/**
 * The most a replacement process's start may hold the start bounds of the jobs waiting for it
 * (job-queue.ts, `pause`): past it, a process that has not said it is ready counts against them.
 */
export const REPLACEMENT_START_WAIT_MS = 30_000;
/** A process that dies before it is ready is started again after this delay, doubled each time up to the maximum. */
export const FIRST_RESTART_DELAY_MS = 50;
export const MAX_RESTART_DELAY_MS = 3200;
export const OUT_OF_MEMORY: Failure = { code: 'SEC106', message: 'handler code exceeded the sandbox memory limit' };
export const CLOSED: Failure = { code: 'SEC107', message: 'the sandbox was closed' };
