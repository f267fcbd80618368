// What the sandbox tells its operator: each time a worker process stops or is replaced, and when
// an answered call's leftover code still tries to reach out. The
// default reporter writes one line per event to stderr (stdout is the MCP stdio channel); a
// logging layer can take the events over through `SandboxOptions.onEvent`.

export type SandboxEvent =
  /** A worker process ended without the host asking (a crash, an outside kill, a failed start). */
  | { kind: 'worker-stopped'; pid: number | undefined; cause: string; beforeReady: boolean; restartInMs: number }
  /** The host killed a worker process and started another (a missed deadline, memory). */
  | { kind: 'worker-replaced'; pid: number | undefined; reason: string }
  /** Code an answered call left behind (a retry loop, a detached fetch) tried a request; refused, charged to no other call. Once per call. */
  | { kind: 'late-request'; pid: number | undefined; unit: string | null };

export type SandboxEventListener = (event: SandboxEvent) => void;

/** The event in one line, as an operator reads it. */
export function describeSandboxEvent(event: SandboxEvent): string {
  const process = `flowguard: sandbox process ${event.pid ?? '(not started)'}`;
  if (event.kind === 'worker-replaced') return `${process} replaced: ${event.reason}`;
  if (event.kind === 'late-request') {
    return `${process}: code left behind by an answered call${event.unit ? ` of ${event.unit}` : ''} tried to make a request or reach the network; refused (never sent, and charged to no other call)`;
  }
  const when = event.restartInMs > 0 ? ` in ${event.restartInMs} ms` : '';
  return `${process} stopped (${event.cause})${event.beforeReady ? ' before it was ready' : ''}; starting another${when}`;
}

function reportToStderr(event: SandboxEvent): void {
  process.stderr.write(`${describeSandboxEvent(event)}\n`);
}

/** `listener` (stderr by default), safe to call: one that throws must not stop the sandbox, and the event still reaches the operator on stderr. */
export function safeListener(listener: SandboxEventListener = reportToStderr): SandboxEventListener {
  return (event) => {
    try {
      listener(event);
    } catch {
      reportToStderr(event);
    }
  };
}
