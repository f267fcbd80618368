// A real redis-server for the suites of src/state/: started on a free loopback port with no
// persistence, stopped (or killed mid-run) by the test. Suites skip, saying why, only when
// redis-server is not installed (CI installs it: .ci/run).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';

export const REDIS_INSTALLED = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
export const REDIS_MISSING =
  'redis-server is not installed (apt-get install -y redis-server): the Redis suites are skipped';

export interface RedisServer {
  port: number;
  url: string;
  /** Kills the server at once (SIGKILL), as a crash would; nothing when it is not running. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    restart: async () => {
      child = await launch(port);
    },
  };
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  if (!(await waitFor(() => output.includes('Ready to accept connections'), 10_000))) {
    child.kill('SIGKILL');
    throw new Error(`redis-server did not start on port ${port}: ${output}`);
  }
  return child;
}
