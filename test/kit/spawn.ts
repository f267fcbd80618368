// The one way tests run the flowguard command in a child process (the in-process runner is
// test/kit/cli.ts). The child's environment is PATH plus what the test gives: no key of the
// developer's shell reaches it. Every run is bounded: a child that outlives its time is killed.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'flowguard.js');

export interface CliRun {
  /** The exit code; null when a signal ended it (SIGKILL once it outlived its time, which stderr then says). */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  /** Working folder (default: the checkout). */
  cwd?: string;
  /** Variables besides PATH. */
  env?: Record<string, string>;
  /** Killed after this long (default 30 s); the run then says so in stderr. */
  timeoutMs?: number;
  /** Written to stdin, which then closes (default: nothing). */
  input?: string;
}

function environment(env: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', ...env };
}

/**
 * `flowguard <args>` to its end, blocking this process. Only for runs that need nothing of this
 * process meanwhile: a loopback server in this process cannot answer while it blocks.
 */
export function runFlowguardSync(args: readonly string[], options: SpawnOptions = {}): CliRun {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: environment(options.env),
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 30_000,
    killSignal: 'SIGKILL',
  });
  const killed = result.signal === 'SIGKILL' ? `\n[killed after ${options.timeoutMs ?? 30_000} ms]` : '';
  return { code: result.status, stdout: result.stdout, stderr: result.stderr + killed };
}

/** `flowguard <args>` to its end, while this process keeps serving (its upstreams, its servers). */
export function runFlowguard(args: readonly string[], options: SpawnOptions = {}): Promise<CliRun> {
  const running = startFlowguard(args, options);
  return running.exited.then((code) => ({ code, stdout: running.stdout(), stderr: running.stderr() }));
}

/** A flowguard command left running (`serve`): its output so far, its end, and a way to stop it. */
export interface RunningFlowguard {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves once `text` appears in stderr (false if the process ended or `ms` passed first). */
  waitForStderr(text: string | RegExp, ms?: number): Promise<boolean>;
  /** SIGTERM, then SIGKILL if it has not ended within 5 s; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export function startFlowguard(args: readonly string[], options: SpawnOptions = {}): RunningFlowguard {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: environment(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const stderrListeners = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const listener of stderrListeners) listener();
  });
  child.stdin?.end(options.input ?? '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const timer = setTimeout(() => {
    stderr += `\n[killed after ${timeoutMs} ms]`;
    child.kill('SIGKILL');
  }, timeoutMs);
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      ended = true;
      for (const listener of stderrListeners) listener();
      resolve(code);
    }),
  );
  const waitForStderr = (text: string | RegExp, ms = 15_000): Promise<boolean> =>
    new Promise((resolve) => {
      const seen = () => (typeof text === 'string' ? stderr.includes(text) : text.test(stderr));
      const check = () => {
        if (!seen() && !ended) return;
        stderrListeners.delete(check);
        clearTimeout(giveUp);
        resolve(seen());
      };
      const giveUp = setTimeout(() => {
        stderrListeners.delete(check);
        resolve(seen());
      }, ms);
      stderrListeners.add(check);
      check();
    });
  const stop = async (): Promise<number | null> => {
    if (!ended) {
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(forced);
    }
    return exited;
  };
  return { child, stdout: () => stdout, stderr: () => stderr, exited, waitForStderr, stop };
}
