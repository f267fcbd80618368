// Runs in every sandbox worker before any library is imported: a timer belongs to the request
// whose code set it (job-context.ts), and once that request has ended, its timers never fire.
// A request's reply waits one turn of the event loop for the work it left running (worker.ts),
// but a timer fires later, under no deadline: a library's timer (ethers' `_setTimeout`, a
// polling loop) would run handler code after its call answered, and a loop there would hold the
// process and fail the next schema's call in it. Timers set outside every request (the worker's
// own) are left as they are. The promise forms (`node:timers/promises`, which
// `util.promisify(setTimeout)` also answers with) are guarded alike: a sleep of an ended request
// never ends, or a library's `await sleep(ms)` would run its code after its call as a timer would.

import { syncBuiltinESMExports } from 'node:module';
import timers from 'node:timers';
import timersPromises from 'node:timers/promises';
import { promisify } from 'node:util';
import { currentJob } from './job-context.js';

type Schedule = (callback: unknown, ...rest: unknown[]) => unknown;
type Sleep = (...args: unknown[]) => Promise<unknown>;
type Ticks = (...args: unknown[]) => AsyncIterator<unknown>;

/** `schedule`, whose callbacks do nothing once the request that scheduled them has ended (an interval is cleared then). */
function guarded(schedule: Schedule, clear: (handle: never) => void, sleep?: Sleep): Schedule {
  const wrapped: Schedule = (callback, ...rest) => {
    const job = currentJob();
    if (!job || typeof callback !== 'function') return schedule(callback, ...rest);
    const handle = schedule(
      function (this: unknown, ...args: unknown[]): unknown {
        if (!job.ended) return (callback as (...args: unknown[]) => unknown).apply(this, args);
        clear(handle as never);
        return undefined;
      },
      ...rest,
    );
    return handle;
  };
  // util.promisify(setTimeout) gives the promise form Node keeps for it: the guarded one.
  if (sleep !== undefined) Object.defineProperty(wrapped, promisify.custom, { value: sleep });
  return wrapped;
}

/** What `settling` settles with, unless the request it belongs to has ended by then: never settled then. */
function whileRunning<T>(settling: Promise<T>): Promise<T> {
  const job = currentJob();
  if (!job) return settling;
  const never = new Promise<never>(() => {});
  return settling.then(
    (value) => (job.ended ? never : value),
    (error: unknown) => (job.ended ? never : Promise.reject(error)),
  );
}

// Node's own, read before they are replaced below.
const { setTimeout: sleep, setImmediate: nextTurn, setInterval: ticking } = timersPromises;
const sleeps = {
  setTimeout: ((...args) => whileRunning(sleep(...(args as [])))) as Sleep,
  setImmediate: ((...args) => whileRunning(nextTurn(...(args as [])))) as Sleep,
  // `for await (const tick of setInterval(ms))`: each tick, as a sleep.
  setInterval: ((...args) => {
    const ticks = ticking(...(args as []));
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      next: () => whileRunning(ticks.next()),
      // Ends Node's interval (a `break` out of the loop).
      return: (value?: unknown) => ticks.return?.(value) ?? Promise.resolve({ done: true, value }),
    };
  }) as Ticks,
};

const schedulers = [
  ['setTimeout', clearTimeout, sleeps.setTimeout],
  ['setInterval', clearInterval, undefined],
  ['setImmediate', clearImmediate, sleeps.setImmediate],
] as const;
for (const [name, clear, promiseForm] of schedulers) {
  const wrapped = guarded(globalThis[name] as unknown as Schedule, clear as (handle: never) => void, promiseForm);
  Object.assign(globalThis, { [name]: wrapped });
  Object.assign(timers, { [name]: wrapped });
}
Object.assign(timersPromises, sleeps);
// `import { setTimeout } from 'node:timers'` (or 'node:timers/promises') in a library reads the replaced functions too.
syncBuiltinESMExports();
