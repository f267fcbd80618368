// Calls at many in flight, and their ceilings (hot-path.ts): what raw `undici.request` reaches
// against the same loopback upstream with as many requests at once, and what the upstream's
// process serves to two such clients at once, each a process of its own. A call through a catalog
// is undici's request plus the pipeline, so no build goes faster than raw undici on the same
// machine: a target above raw undici's rate over the older build is out of any build's reach. The
// upstream's own capacity says whether the bench's upstream, rather than the client, caps them all.

import { fork } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Agent, request } from 'undici';

export interface Rate {
  callsPerSecond: number;
  /** CPU time of this process per call, in µs (the event loop, undici, the kernel's sends). */
  cpuUs: number;
  /** CPU time of this process's children per call, in µs (sandbox workers, the upstream); NaN without /proc. */
  childCpuUs: number;
}

/** `total` calls of `one`, `inFlight` of them running at any moment. */
export async function atOnce(one: () => Promise<void>, total: number, inFlight: number): Promise<Rate> {
  let next = 0;
  const lane = async () => {
    while (next < total) {
      next += 1;
      await one();
    }
  };
  const children = childCpuMs();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, lane));
  const took = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return {
    callsPerSecond: (total / took) * 1000,
    cpuUs: (used.user + used.system) / total,
    childCpuUs: ((childCpuMs() - children) * 1000) / total,
  };
}

/** One raw `undici.request` to `url`, its body read as JSON, on an agent of its own (a pool per origin, no connection limit). */
export function rawUndici(url: string): { one: () => Promise<void>; close: () => Promise<void> } {
  const agent = new Agent();
  return {
    one: async () => {
      const response = await request(url, { dispatcher: agent, headers: { 'x-api-key': 'bench-key-value' } });
      await response.body.json();
    },
    close: () => agent.close(),
  };
}

/** A raw undici client in a process of its own: asked for a run, it answers with its calls per second. */
const CLIENT = `
const { Agent, request } = require(process.argv[2]);
const agent = new Agent();
process.on('message', async ({ url, total, inFlight }) => {
  let next = 0;
  const start = performance.now();
  const lane = async () => {
    while (next < total) { next += 1; const response = await request(url, { dispatcher: agent }); await response.body.json(); }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  process.send((total / (performance.now() - start)) * 1000);
});
`;

/** Raw undici clients in processes of their own, to ask together how much the upstream serves. */
export class RawClients {
  private readonly children;

  constructor(dir: string, count: number) {
    const file = join(dir, 'raw-client.cjs');
    writeFileSync(file, CLIENT);
    const undiciEntry = createRequire(import.meta.url).resolve('undici');
    this.children = Array.from({ length: count }, () =>
      fork(file, [undiciEntry], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
    );
  }

  /** Calls per second the upstream served to all clients together, each sending `total` with `inFlight` at once. */
  async together(url: string, total: number, inFlight: number): Promise<number> {
    const start = performance.now();
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise((answered) => {
            child.once('message', answered);
            child.send({ url, total, inFlight });
          }),
      ),
    );
    return ((this.children.length * total) / (performance.now() - start)) * 1000;
  }

  close(): void {
    for (const child of this.children) child.kill();
  }
}

/**
 * The one concurrency every build compared takes (FLOWGUARD_HOT_PATH_CONCURRENCY, written into the
 * project's config in `dir`), or the upstream guard's default when unset; said as the header says it.
 */
export function sameLimit(dir: string): string {
  const limit = process.env.FLOWGUARD_HOT_PATH_CONCURRENCY;
  if (limit === undefined) return "the upstream guard's default concurrency (8 per origin) for every build";
  mkdirSync(join(dir, '.flowmcp'));
  const config = { upstreamLimits: { default: { concurrency: Number(limit) } } };
  writeFileSync(join(dir, '.flowmcp', 'config.json'), JSON.stringify(config));
  return `upstreamLimits.default.concurrency ${limit} for every build`;
}

/** CPU time of this process's live children, in ms, from /proc (NaN where there is none). */
function childCpuMs(): number {
  try {
    let ms = 0;
    for (const task of readdirSync('/proc/self/task'))
      for (const pid of readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' '))
        if (pid.trim() !== '') ms += processCpuMs(pid.trim());
    return ms;
  } catch {
    return Number.NaN;
  }
}

/** utime + stime of a process, in ms (clock ticks of 10 ms, as Linux counts them); 0 once it has ended. */
function processCpuMs(pid: string): number {
  try {
    const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] as string).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
