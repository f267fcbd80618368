// Runs in every sandbox worker before any library is imported: a timer belongs to the request
// whose code set it (job-context.ts), and once that request has ended, its timers never fire.
// A request's reply waits one turn of the event loop for the work it left running (worker.ts),
// but a timer fires later, under no deadline: a library's timer (ethers' `_setTimeout`, a
// polling loop) would run handler code after its call answered, and a loop there would hold the
// process and fail the next schema's call in it. Timers set outside every request (the worker's
// own) are left as they are.

import { syncBuiltinESMExports } from 'node:module';
import timers from 'node:timers';
import { promisify } from 'node:util';
import { currentJob } from './job-context.js';

type Schedule = (callback: unknown, ...rest: unknown[]) => unknown;

/** `schedule`, whose callbacks do nothing once the request that scheduled them has ended (an interval is cleared then). */
function guarded(schedule: Schedule, clear: (handle: never) => void): Schedule {
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
  // util.promisify(setTimeout) gives the promise form Node keeps for it.
  const custom = (schedule as { [promisify.custom]?: unknown })[promisify.custom];
  if (custom !== undefined) Object.defineProperty(wrapped, promisify.custom, { value: custom });
  return wrapped;
}

const schedulers = [
  ['setTimeout', clearTimeout],
  ['setInterval', clearInterval],
  ['setImmediate', clearImmediate],
] as const;
for (const [name, clear] of schedulers) {
  const wrapped = guarded(globalThis[name] as unknown as Schedule, clear as (handle: never) => void);
  Object.assign(globalThis, { [name]: wrapped });
  Object.assign(timers, { [name]: wrapped });
}
// `import { setTimeout } from 'node:timers'` in a library reads the replaced functions too.
syncBuiltinESMExports();
