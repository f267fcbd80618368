// What a worker process says besides replies, routed to whom it concerns: a request of an
// executeRequest call to its bridge (or, from a call that has ended, refused), a call parked on
// the network, and a request made after its call ended. Replies go to the call waiting for them,
// or are kept until it asks.

import type { SandboxEvent } from './events.js';
import type { Late, Outbound, Parked, Reply } from './protocol.js';
import type { Replies } from './replies.js';
import type { RunningRequests } from './running-requests.js';
import type { WorkerProcess } from './worker-process.js';

/** The parts of the supervisor a message may concern. */
export interface MessageRoutes {
  running: RunningRequests;
  replies: Replies;
  /** The process now: a message of one replaced is not routed here. */
  worker(): WorkerProcess | null;
  report(event: SandboxEvent): void;
}

export function routeWorkerMessage(message: Reply | Outbound | Parked | Late, to: MessageRoutes): void {
  if ('outbound' in message) {
    // Only a running executeRequest call may ask, and only for itself (the worker says which
    // call's code made the request); a request of one that has ended is refused, charged to no one.
    const bridged = to.running.get(message.id)?.bridge;
    if (bridged) void bridged.perform(message);
    else refuseLate(message, to);
    return;
  }
  if ('parked' in message) {
    to.running.get(message.parked)?.bridge?.parked(message.at);
    return;
  }
  if ('late' in message) {
    to.report({ kind: 'late-request', pid: to.worker()?.pid, unit: message.unit });
    return;
  }
  const reply = to.replies.accept(message);
  if (!reply) return;
  const running = to.running.get(reply.id);
  if (running) running.settle(reply);
  else to.replies.keep(reply);
}

/** A request whose call is no longer running: answered with a refusal, so the worker forgets it. */
function refuseLate(message: Outbound, to: MessageRoutes): void {
  if (to.running.firstLate(message.id)) to.report({ kind: 'late-request', pid: to.worker()?.pid, unit: null });
  const answer = {
    ok: false,
    message: 'CALL_ENDED: the call that made this request is not running; nothing was sent',
  } as const;
  to.worker()?.send({ kind: 'inbound', outbound: message.outbound, answer });
}
