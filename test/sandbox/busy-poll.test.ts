// BusyPoll keeps an event loop turning for a bounded window only: a process with nothing else to
// do still exits on its own, whether the window runs out or is stopped; and it does not poll at
// all when polling does not help: by default, once the process was kept off its core while polling,
// or once its work overlapped (a request arrived while another was in hand).

import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLOWGUARD_DIR } from './helpers.js';

const MODULE = JSON.stringify(join(FLOWGUARD_DIR, 'dist/src/sandbox/busy-poll.js'));

function run(body: string, worthIt = 'true') {
  const script = `const { BusyPoll } = await import(${MODULE}); const poll = new BusyPoll(() => ${worthIt}); ${body}`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
}

describe('BusyPoll', () => {
  it('turns the event loop while the window lasts, then lets the process exit', () => {
    const result = run(`
      const start = performance.now();
      poll.extend(30);
      process.on('exit', () => console.log(JSON.stringify({ alive: performance.now() - start })));
    `);
    expect(result.status).toBe(0);
    const { alive } = JSON.parse(result.stdout) as { alive: number };
    // Nothing but the poll held the process that long.
    expect(alive).toBeGreaterThanOrEqual(30);
  });

  it('stop() ends the window early', () => {
    const result = run(`
      const start = performance.now();
      poll.extend(60_000);
      setTimeout(() => poll.stop(), 5);
      process.on('exit', () => console.log(JSON.stringify({ alive: performance.now() - start })));
    `);
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as { alive: number }).alive).toBeLessThan(60_000);
  });

  it('does not poll when polling does not help: the process exits at once instead of turning for the window', () => {
    const result = run(
      `
      poll.extend(60_000);
      process.on('exit', () => console.log('exited'));
    `,
      'false',
    );
    // Polling for the window would hold the process past spawnSync's 10 s timeout (status null).
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe('exited');
  });

  it('does not poll for a while once work overlapped (calls queued behind each other): the process exits at once', () => {
    // The default judge, after workOverlaps(): polling for the window would hold the process past
    // spawnSync's 10 s timeout (status null); on a build without the rule the import fails (status 1).
    const script = `const { BusyPoll, workOverlaps } = await import(${MODULE}); workOverlaps(); new BusyPoll().extend(60_000); process.on('exit', () => console.log('exited'));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe('exited');
  });

  it('stops polling once the kernel keeps the process off its core, instead of turning for the whole window', async () => {
    // The default judge: a process stopped (SIGSTOP) while it polls has lost its core for as long.
    const script = `const { BusyPoll } = await import(${MODULE}); new BusyPoll().extend(60_000); process.send('polling'); process.on('exit', () => console.log('exited'));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    // Polling through the window would hold the process for a minute: it is killed after 10 s instead.
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('message', () => {
      child.disconnect();
      child.kill('SIGSTOP');
      setTimeout(() => child.kill('SIGCONT'), 20);
    });
    const code = await new Promise<number | null>((done) => child.once('exit', (exitCode) => done(exitCode)));
    clearTimeout(killer);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('exited');
  });
});
