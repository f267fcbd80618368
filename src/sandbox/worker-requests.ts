// One request to a sandbox worker process and its reply, as the supervisor sends them
// (worker-supervisor.ts decides what to send when, and keeps the process going): the request's
// id, its deadline from the moment the host waits for it, the bridge of an executeRequest call
// (whose deadline pauses while the core performs its requests, and which may be parked), and what
// a missed deadline or a reply that ends the worker does to the process.

import { BridgedCall, PausableTimer } from './bridged-call.js';
import { BusyPoll } from './busy-poll.js';
import type { ProcessTurn } from './process-turn.js';
import {
  describeCommand,
  isFailure,
  type Bridge,
  type Command,
  type Failure,
  type Reply,
  type Request,
} from './protocol.js';
import { describeError, endsWorker, missedDeadline, type Replies } from './replies.js';
import type { RunningRequests } from './running-requests.js';
import { CLOSED, REPLY_POLL_MS } from './sandbox-options.js';
import type { WorkerProcess } from './worker-process.js';

/** What the requests need of the supervisor that sends them: its process, its state, and its hand to replace the process. */
export interface RequestsHost {
  /** The last process started; null only when starting one failed at once. */
  worker(): WorkerProcess | null;
  closed(): boolean;
  /** Whether jobs wait in the queue: then polling for a reply takes a core the worker needs. */
  jobsWaiting(): boolean;
  /** Kills the process and starts another; the requests still running in it fail. */
  replace(reason: string): void;
  running: RunningRequests;
  replies: Replies;
  turn: ProcessTurn;
  deadlineMs: number;
  memoryMb: number;
  bridgeAllowanceMs: number;
}

export class WorkerRequests {
  private nextId = 1;
  /** The bridge of each executeRequest call, by its command, until it runs. */
  private readonly bridges = new WeakMap<Command, Bridge>();
  private readonly replyPoll = new BusyPoll();

  constructor(private readonly host: RequestsHost) {}

  /** The bridge `command`'s requests go to once it runs. */
  setBridge(command: Command, bridge: Bridge): void {
    this.bridges.set(command, bridge);
  }

  isBridged(command: Command): boolean {
    return this.bridges.has(command);
  }

  /** Sends one request and waits for its reply or its deadline, whichever comes first. */
  async execute(command: Command, owner: object, deadline?: number): Promise<Reply | Failure> {
    const id = this.send(command);
    return isFailure(id) ? id : this.replyTo(id, command, owner, deadline);
  }

  /** Sends one request; one that cannot be sent (nested too deep to serialise) fails alone. */
  send(command: Command, startBy?: number): number | Failure {
    const id = this.nextId++;
    try {
      (this.host.worker() as WorkerProcess).send({
        ...command,
        id,
        ...(startBy === undefined ? {} : { startBy }),
      } as Request);
    } catch (error) {
      return {
        code: 'SEC107',
        message: `could not send ${describeCommand(command)} its input (${describeError(error)})`,
      };
    }
    this.host.replies.expect(id);
    return id;
  }

  /**
   * Waits for the reply to a request sent to this process; its deadline starts now. The worker
   * replies once its event loop has turned after the request: a request that returned but left
   * work running that blocks the process (an endless promise chain) misses its deadline.
   */
  replyTo(id: number, command: Command, owner: object, deadline = this.host.deadlineMs): Promise<Reply | Failure> {
    const { host } = this;
    if (host.closed()) return Promise.resolve(CLOSED);
    const worker = host.worker() as WorkerProcess;
    const arrived = host.replies.take(id);
    if (arrived) return Promise.resolve(this.received(arrived));
    return new Promise((settle) => {
      const finish = (reply: Reply | Failure) => {
        timer.stop();
        bridged?.stop();
        this.replyPoll.stop();
        settle(reply);
      };
      const missed = (failure: Failure) => {
        if (!host.running.remove(id)) return;
        const holds = host.turn.holds(owner);
        finish(failure);
        // A parked call runs nothing: it fails alone, and the process serves on.
        if (holds) host.replace(failure.message);
        else host.replies.forget(id);
      };
      const miss = () =>
        missed(missedDeadline(worker, host.memoryMb, worker.returned(id), describeCommand(command), deadline));
      const timer = new PausableTimer(deadline, () => (bridged ? bridged.overdue(miss) : miss()));
      // An executeRequest call: its deadline pauses while the core performs its requests; the whole call has a bound.
      const bridge = this.bridges.get(command);
      const calls = {
        wholeMs: deadline + host.bridgeAllowanceMs,
        missed,
        heard: () => worker.heard,
        send: (message: Parameters<WorkerProcess['send']>[0]) => worker === host.worker() && worker.send(message),
        turn: host.turn,
        owner,
      };
      const bridged = bridge && new BridgedCall(id, bridge, timer, calls);
      host.running.add(id, {
        owner,
        bridge: bridged,
        settle: (reply) => {
          // Deleted first: a reply that replaces the process fails the others, not this one.
          if (!host.running.remove(id)) return;
          finish(isFailure(reply) ? reply : this.received(reply));
        },
      });
      // Polling pays only with nothing else to do: beside queued jobs it takes a core the worker needs.
      if (!host.jobsWaiting()) this.replyPoll.extend(REPLY_POLL_MS);
    });
  }

  /** A reply, looked at before anyone acts on it: a worker that reports running out of memory exits after that reply, so it is replaced at once and no later request is lost with it. */
  private received(reply: Reply): Reply {
    const ends = endsWorker(reply);
    if (ends !== null) this.host.replace(ends);
    return reply;
  }
}
