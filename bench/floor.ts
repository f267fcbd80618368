// The floor of a handler call (hot-path.ts): a preRequest + postRequest is two round trips between
// the host and a sandbox process. A bare pair of Node processes, Node's JSON channel, the reply sent
// from the turn of the event loop after the request (as the sandbox worker sends it) and nothing
// else: no SES, no queue, no deadline, no checks. Two of its round trips are the least a handler
// call can add over a plain call while handlers run in a process of their own (decision R3).

import { type ChildProcess, fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './stats.js';

/** The bare worker: answers each request from the next turn of its event loop; `{ poll }` turns polling on or off. */
const BARE = `
let polling = false;
const poll = () => { if (polling) setImmediate(poll); };
process.on('message', (message) => {
  if ('poll' in message) { polling = message.poll; poll(); process.send({ polling }); return; }
  setImmediate(() => process.send({ id: message.id, ok: true, json: JSON.stringify(message.input) }));
});
`;

/** A hook's input of the bench route's size: the request struct and the payload. */
const INPUT = {
  struct: {
    url: 'https://api.bench.test/v1/price/eth?currency=usd',
    method: 'GET',
    headers: { 'x-api-key': 'bench-key-value', 'x-symbol': 'ETH' },
    body: null,
  },
  payload: { symbol: 'eth', currency: 'usd' },
};

export class BarePair {
  private readonly child: ChildProcess;

  constructor(dir: string) {
    const file = join(dir, 'bare-worker.cjs');
    writeFileSync(file, BARE);
    this.child = fork(file, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'json' });
  }

  /** p50 of `count` sequential round trips, in ms; with `polling`, both sides keep their event loops turning meanwhile. */
  async roundTrip(count: number, polling: boolean): Promise<number> {
    await this.ask({ poll: polling });
    let hostPolls = false;
    const poll = () => {
      if (hostPolls) setImmediate(poll);
    };
    const took: number[] = [];
    for (let id = 0; id < count; id += 1) {
      const start = performance.now();
      hostPolls = polling;
      poll();
      await this.ask({ id, input: INPUT });
      hostPolls = false;
      took.push(performance.now() - start);
    }
    await this.ask({ poll: false });
    return median(took);
  }

  close(): void {
    this.child.kill();
  }

  private ask(message: object): Promise<unknown> {
    return new Promise((answered) => {
      this.child.once('message', answered);
      this.child.send(message);
    });
  }
}
