// Runs the jobs of one sandbox worker process for the host: its queue of jobs, which of them go to
// the process when (one at a time, or together), and what the process's end or replacement does to
// them. The process's life (start, restart, replacement) is worker-life.ts; each request's round
// trip, its deadline and the bridge of an executeRequest call, worker-requests.ts (the header of
// host.ts says why processes, and what each part does).

import { workOverlaps } from './busy-poll.js';
import { type Job, JobQueue } from './job-queue.js';
import { safeListener, type SandboxEventListener } from './events.js';
import { ProcessTurn } from './process-turn.js';
import {
  describeCommand,
  isFailure,
  type Bridge,
  type Command,
  type Failure,
  type Reply,
  type UnitSpec,
} from './protocol.js';
import { describeError, notStarted, Replies, wasDropped } from './replies.js';
import { RunningRequests } from './running-requests.js';
import {
  CLOSED,
  DEFAULT_BRIDGE_ALLOWANCE_MS,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MEMORY_MB,
  IMPORT_DEADLINE_MS,
  LOAD_START_WAIT_MS,
  MOST_AHEAD,
  OUT_OF_MEMORY,
  START_ALLOWANCE_MS,
  type SandboxOptions,
} from './sandbox-options.js';
import { JobsInHand } from './jobs-in-hand.js';
import { ProcessHoldings } from './process-holdings.js';
import { routeWorkerMessage, type MessageRoutes } from './worker-messages.js';
import { WorkerLife } from './worker-life.js';
import { rssLimitMb, type WorkerProcess } from './worker-process.js';
import { WorkerRequests } from './worker-requests.js';

/**
 * One worker process and the queue of jobs for it. The worker runs requests one at a time, in the order sent, so a
 * deadline measures exactly one factory or handler call (a network attempt is charged to the request whose code made
 * it, job-context.ts). Consecutive loads are sent together, and calls of a loaded unit ahead (the worker goes from one
 * to the next without a round trip to the host between them); everything else waits for the reply before it. A job
 * that no process has started by its start bound fails (the process was restarting, or busy with the jobs before it);
 * the bounds stand still while a process that had been ready is replaced (job-queue.ts). A wait on the network does
 * not hold the process: an executeRequest call whose requests are in flight while other jobs wait is parked, and the
 * next job runs beside it (process-turn.ts: why; bridged-call.ts: how).
 */
export class WorkerSupervisor {
  unitCount = 0;
  /** The process: started, ready, ended, replaced, started again. */
  private readonly life: WorkerLife;
  /** Wakes the drain loop while it waits for a ready process. */
  private wake: (() => void) | null = null;
  private holdings = new ProcessHoldings();
  private readonly queue = new JobQueue((job, waitedMs, sentAhead) => this.expired(job, waitedMs, sentAhead));
  /** The request id of each job sent together with others, for dropping one that waited too long. */
  private readonly sentAhead = new WeakMap<Job, number | Failure>();
  /** Whether the drain loop runs, and the owner it waits for the turn as (it goes after calls sent ahead). */
  private draining = false;
  private drainWaits: object | null = null;
  /** While a call runs: sends calls ahead as soon as they are queued, up to the most allowed. */
  private sendWhenQueued: (() => void) | null = null;
  /** Whose code the process runs: the job sent last, or a parked call taking its answers. */
  private readonly turn = new ProcessTurn();
  /** Requests sent and not answered yet: the one holding the turn, and parked calls. */
  private readonly running = new RunningRequests(this.turn);
  /** Jobs queued or running: while there are any, the process keeps the host alive and its memory is watched. */
  private readonly inHand = new JobsInHand(
    (busy) => this.worker?.hold(busy),
    () => this.checkMemory(),
  );
  /** Each request sent to the process, until its reply or its deadline. */
  private readonly requests: WorkerRequests;
  private readonly replies = new Replies();
  private readonly memoryMb: number;
  private readonly deadlineMs: number;
  private readonly onEvent: SandboxEventListener;
  private readonly routes: MessageRoutes = {
    running: this.running,
    replies: this.replies,
    worker: () => this.worker,
    report: (event) => this.onEvent(event),
  };

  constructor(options: SandboxOptions) {
    this.memoryMb = options.memoryMb ?? DEFAULT_MEMORY_MB;
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.onEvent = safeListener(options.onEvent);
    this.life = new WorkerLife(this.memoryMb, {
      starting: () => {
        this.replies.clear();
        this.holdings = new ProcessHoldings();
      },
      busy: () => this.inHand.busy,
      ready: () => {
        this.queue.resume();
        this.wake?.();
      },
      message: (message) => routeWorkerMessage(message, this.routes),
      ended: (worker, cause, beforeReady) => this.ended(worker, cause, beforeReady),
      report: this.onEvent,
    });
    this.requests = new WorkerRequests({
      worker: () => this.worker,
      closed: () => this.closed,
      jobsWaiting: () => this.queue.length > 0,
      replace: (reason) => this.replace(reason),
      running: this.running,
      replies: this.replies,
      turn: this.turn,
      deadlineMs: this.deadlineMs,
      memoryMb: this.memoryMb,
      bridgeAllowanceMs: options.bridgeAllowanceMs ?? DEFAULT_BRIDGE_ALLOWANCE_MS,
    });
    this.life.start();
  }

  get pid(): number | undefined {
    return this.worker?.pid;
  }

  private get worker(): WorkerProcess | null {
    return this.life.worker;
  }

  private get closed(): boolean {
    return this.life.closed;
  }

  run(command: Command, spec?: UnitSpec, bridge?: Bridge): Promise<Reply | Failure> {
    if (bridge) this.requests.setBridge(command, bridge);
    return new Promise((settle) => {
      this.enqueue({ command, spec, settle: this.inHand.track(settle) });
      this.sendWhenQueued?.();
      void this.drain();
    });
  }

  async close(): Promise<void> {
    // No process starts any more; the current one is killed.
    const stopped = this.life.close();
    this.running.failAll(() => CLOSED);
    this.queue.failAll(CLOSED);
    this.wake?.();
    await stopped;
  }

  /** The current process has said it takes requests, and has not ended since. */
  get ready(): boolean {
    return this.life.ready;
  }

  /** Queues a job; it fails if no process has started it by its deadline. */
  private enqueue(job: Job, front = false): void {
    this.queue.add(job, job.command.kind === 'load' ? LOAD_START_WAIT_MS : this.deadlineMs + START_ALLOWANCE_MS, front);
  }

  /** A job that could not start in time fails; one sent ahead is dropped from the worker's inbox too. */
  private expired(job: Job, waitMs: number, sentAhead: boolean): void {
    const id = this.sentAhead.get(job);
    this.sentAhead.delete(job);
    // Only the process knows whether it started a job sent ahead: its answer settles it (performTogether).
    if (sentAhead && typeof id === 'number') return void this.worker?.send({ kind: 'drop', id });
    job.settle(notStarted(job.command, waitMs, this.ready ? 'busy' : this.life.restarting ? 'restarting' : 'starting'));
    this.wake?.();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    while (this.queue.length > 0 && !this.closed) {
      if (!this.ready) {
        // Woken when a process is ready, when a waiting job's deadline passes, or at close.
        await new Promise<void>((wake) => (this.wake = wake));
        this.wake = null;
        continue;
      }
      // The next job starts once the job before it has answered, or only waits for the network (parked).
      const owner = (this.drainWaits = {});
      await this.turn.take(owner);
      this.drainWaits = null;
      if (this.queue.length === 0 || this.closed || !this.ready) {
        this.turn.release(owner);
        continue;
      }
      const first = this.queue.shift();
      const jobs = [first];
      // Not awaited: the next turn of the loop waits until this job gives the turn on.
      void this.settleAll(jobs, owner, async () => {
        if (this.holdings.isReadyLoad(first))
          jobs.push(...this.queue.shiftWhile((next) => this.holdings.isReadyLoad(next)));
        else if (!this.isReadyCall(first)) return first.settle(await this.perform(first, owner));
        await this.performTogether(jobs, owner);
      });
    }
    this.draining = false;
  }

  /** Runs `work` holding the turn as `owner`, then gives the turn on (and drains jobs it put back: loads behind one that ended the process). */
  private async settleAll(jobs: Job[], owner: object, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      // Nobody awaits this: an exception here would end the host. It fails its jobs instead.
      for (const job of jobs)
        job.settle({
          code: 'SEC107',
          message: `the sandbox could not run ${describeCommand(job.command)}: ${describeError(error)}`,
        });
    } finally {
      this.turn.release(owner);
      if (this.queue.length > 0) void this.drain();
    }
  }

  private checkMemory(): void {
    if (this.running.size > 0 && (this.worker?.residentMb() ?? 0) > rssLimitMb(this.memoryMb))
      this.replace(OUT_OF_MEMORY.message, OUT_OF_MEMORY);
  }

  /** A job, preceded by what a new process lacks: the unit's libraries, and the unit itself. */
  private async perform({ command, spec }: Job, owner: object): Promise<Reply | Failure> {
    if (spec) {
      const missing = this.holdings.missing(spec.libraries);
      if (missing.length > 0) {
        const imported = await this.requests.execute({ kind: 'import', libraries: missing }, owner, IMPORT_DEADLINE_MS);
        if (isFailure(imported) || !imported.ok) return imported;
        this.holdings.markImported(missing);
      }
    }
    if (spec && command.kind === 'call' && !this.holdings.hasLoaded(spec.id)) {
      const reload = await this.requests.execute({ kind: 'load', unit: spec }, owner);
      if (isFailure(reload) || !reload.ok) return reload;
      this.holdings.markLoaded(spec.id);
    }
    const reply = await this.requests.execute(command, owner);
    if (command.kind === 'load' && !isFailure(reply) && reply.ok) this.holdings.markLoaded(command.unit.id);
    return reply;
  }

  /** A call that needs nothing sent before it (process-holdings.ts). */
  private isReadyCall(job: Job): boolean {
    return this.holdings.isReadyCall(job, this.requests.isBridged(job.command));
  }

  /**
   * Loads sent together, or calls ahead: the worker runs them in order, from one to the next
   * without a round trip to the host. Each deadline starts when the one before it has answered,
   * which is when the worker starts it. While a call runs, ready calls go behind it at once or
   * when queued: up to MOST_AHEAD, one while a call is parked (its answers wait behind them), none
   * once it waits for the turn (it goes next). When one ends the process, those behind it never
   * ran and go first into the new process (a dropped call failed), each with the start bound it
   * was queued with (JobQueue.shiftAhead, putBack). */
  private async performTogether(jobs: Job[], owner: object): Promise<void> {
    const worker = this.worker;
    const sent = jobs.map((job) => this.requests.send(job.command));
    /** Sends ready calls behind job `index` until as many wait behind it as may. */
    const fill = (index: number): void => {
      if (this.closed || this.worker !== worker || this.turn.wantedBesides(this.drainWaits)) return;
      const room = (this.running.anyParked ? 1 : MOST_AHEAD) - (jobs.length - index - 1);
      for (const next of this.queue.shiftAhead((queued) => this.isReadyCall(queued), room)) {
        workOverlaps(); // calls queue behind each other: polling would only take a core (busy-poll.ts)
        jobs.push(next);
        sent.push(this.requests.send(next.command, this.queue.bound(next)));
        this.sentAhead.set(next, sent[sent.length - 1] as number | Failure);
      }
    };
    for (let index = 0; index < jobs.length; index += 1) {
      const job = jobs[index] as Job;
      this.queue.started(job);
      // Without calls behind it, the worker would wait for the host to send the next once this one answers.
      if (job.command.kind === 'call') (this.sendWhenQueued = () => fill(index))();
      const id = sent[index] as number | Failure;
      const reply = isFailure(id) ? id : await this.requests.replyTo(id, job.command, owner);
      this.sendWhenQueued = null;
      if (!isFailure(reply) && reply.ok && job.command.kind === 'load') this.holdings.markLoaded(job.command.unit.id);
      job.settle(wasDropped(reply) ? notStarted(job.command, this.deadlineMs + START_ALLOWANCE_MS, 'busy') : reply);
      if (this.worker !== worker) {
        for (const behind of jobs.slice(index + 1).reverse())
          if (behind.command.kind === 'load') this.enqueue(behind, true);
          else if (this.sentAhead.delete(behind)) this.queue.putBack(behind);
          else behind.settle(notStarted(behind.command, this.deadlineMs + START_ALLOWANCE_MS, 'busy'));
        return;
      }
    }
  }

  /** The process ended by itself, or could not start (null): what ran in it fails; the waiting jobs' start bounds stand still while the next starts, unless this one never did. */
  private ended(worker: WorkerProcess | null, cause: string, beforeReady: boolean): void {
    if (worker) {
      const stopped: Failure = { code: 'SEC107', message: `the sandbox process stopped (${cause})` };
      this.running.failAll((holder) => (holder && worker.ranOutOfHeap() ? OUT_OF_MEMORY : stopped));
    }
    if (beforeReady) this.queue.resume();
    else this.queue.pause();
  }

  /** Kills the process and starts another; the requests still running in it fail (`holder`: the one holding the turn, if it has not failed already). */
  private replace(reason: string, holder?: Failure): void {
    if (this.closed) return;
    const replaced: Failure = { code: 'SEC107', message: `the sandbox process was replaced (${reason})` };
    this.running.failAll((holds) => (holds && holder ? holder : replaced));
    this.queue.pause();
    this.life.replace(reason);
  }
}
