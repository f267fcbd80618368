// Two (or more) spawned `flowguard serve --transport http` replicas of one project for the
// deployment suites, each on a loopback port of its own, and what each one answered (its
// /metrics, read directly, not through the balancer).

import { BIN, spawnServe, type Spawned } from '../mcp/helpers.js';
import { waitFor } from '../support/wait.js';

export interface Replica {
  spawned: Spawned;
  /** `127.0.0.1:<port>`, as the balancer config names it. */
  address: string;
  /** Tool calls this replica finished, by its own /metrics. */
  calls(): Promise<number>;
  /** SIGKILL, as a crash or an OOM kill would end it. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** `args`: the arguments after `serve` besides transport and port; `env`: variables besides PATH. */
export async function startReplica(args: readonly string[], env: Record<string, string> = {}): Promise<Replica> {
  const spawned = spawnServe([BIN, 'serve', '--transport', 'http', '--port', '0', ...args], env);
  const started = await waitFor(
    () => /serving \d+ tools? at (\S+)/.test(spawned.stderr()) || spawned.child.exitCode !== null,
    60_000,
    50,
  );
  const url = /serving \d+ tools? at (\S+)/.exec(spawned.stderr())?.[1];
  if (!started || url === undefined) {
    spawned.child.kill('SIGKILL');
    throw new Error(`flowguard serve did not start: ${spawned.stderr()}`);
  }
  const { host } = new URL(url);
  const end = async (signal: NodeJS.Signals) => {
    if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill(signal);
    await spawned.exited;
  };
  return {
    spawned,
    address: host,
    calls: async () => callsIn(await (await fetch(`http://${host}/metrics`)).text()),
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
}

/** The sum of `flowguard_tool_calls_total` over its tools and outcomes. */
function callsIn(metrics: string): number {
  let sum = 0;
  for (const line of metrics.split('\n')) {
    const match = /^flowguard_tool_calls_total\{[^}]*\} (\d+)$/.exec(line);
    if (match) sum += Number(match[1]);
  }
  return sum;
}
