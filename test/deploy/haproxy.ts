// A real HAProxy for the deployment suites, running deploy/haproxy/haproxy.cfg (the file compose
// mounts) natively on loopback ports: the replicas' addresses and the listening port come from
// the environment variables that file reads. Suites skip, saying why, only when haproxy is not
// installed (CI installs it: .ci/run).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../mcp/helpers.js';
import { freePort } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';

export const HAPROXY_CONFIG = join(ROOT, 'deploy', 'haproxy', 'haproxy.cfg');

/** The haproxy binary: on PATH, or Debian's /usr/sbin (not on a plain user's PATH). */
export const HAPROXY = ['haproxy', '/usr/sbin/haproxy'].find(
  (candidate) =>
    (candidate.startsWith('/') ? existsSync(candidate) : true) &&
    spawnSync(candidate, ['-v'], { stdio: 'ignore' }).status === 0,
);
export const HAPROXY_MISSING =
  'haproxy is not installed (apt-get install -y haproxy): the load balancer suites are skipped';

/** The environment deploy/haproxy/haproxy.cfg reads: where it listens and the two replicas. */
export function balancerEnv(port: number, replicas: readonly [string, string]): Record<string, string> {
  return {
    FLOWGUARD_LB_BIND: `127.0.0.1:${port}`,
    FLOWGUARD_REPLICA1: replicas[0],
    FLOWGUARD_REPLICA2: replicas[1],
    // Quick health checks: a replica that died is out of the rotation within a second.
    FLOWGUARD_CHECK_INTER: '200ms',
    // No DNS on loopback: the replicas are addresses, so the resolver is never asked.
    FLOWGUARD_DNS: '127.0.0.1:53',
  };
}

/** `haproxy -c`: whether a config file is valid with this environment, and what haproxy said. */
export function checkConfig(file: string, env: Record<string, string>): { valid: boolean; output: string } {
  const run = spawnSync(HAPROXY as string, ['-c', '-f', file], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { valid: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

export interface Balancer {
  /** `http://127.0.0.1:<port>/mcp` through the balancer. */
  url: string;
  /** What haproxy logged (one line per request: option httplog). */
  log(): string;
  stop(): Promise<void>;
}

/** Runs haproxy in the foreground on `file` (default: the deploy config) in front of two replicas (`host:port`). */
export async function startBalancer(replicas: readonly [string, string], file = HAPROXY_CONFIG): Promise<Balancer> {
  if (!HAPROXY) throw new Error(HAPROXY_MISSING);
  const port = await freePort();
  // -db: stay in the foreground, the test owns the process.
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], {
    env: { PATH: process.env.PATH ?? '', ...balancerEnv(port, replicas) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (!(await waitFor(() => child.exitCode === null && listening(port), 10_000, 50))) {
    child.kill('SIGKILL');
    throw new Error(`haproxy did not start on port ${port}: ${output}`);
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
