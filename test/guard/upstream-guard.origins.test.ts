// Attacks the upstream guard's memory (src/guard/upstream-guard.ts, its `routes` and LimitTable's
// `resolved`): a schema whose reach has a `${label}` origin (`https://${chain}.rpc.example.com`,
// test/catalog/reach.test.ts) lets its executeRequest handler ask for as many origins as there
// are labels, up to network.maxRequestsPerCall per call and without end over calls. Each request
// passes the guard before anything is sent (even one whose name resolves nowhere). The guard's
// tables must stay bounded however many origins are asked for, as the shared state's pauses and
// buckets are (MemoryState, 10,000 keys each).

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { UpstreamGuard } from '../../src/guard/upstream-guard.js';
import { MemoryState } from '../../src/state/memory-state.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** Admits and releases one request to each of `count` origins of one `${label}`, from `first` on. */
async function askFor(guard: UpstreamGuard, first: number, count: number): Promise<void> {
  for (let index = first; index < first + count; index += 1) {
    const admission = await guard.admit(`https://chain${index}.rpc.example.com`, 'wildcard', undefined);
    if (!admission.ok) throw new Error(admission.refusal.message);
    admission.release();
  }
}

describe('the upstream guard and a handler that asks for ever more origins', () => {
  it('keeps its memory bounded: 200,000 more origins grow the heap by under 8 MB', async () => {
    // A rate limit by default, so every origin also resolves a bucket; concurrency by default too.
    const guard = new UpstreamGuard({ default: { requestsPerSecond: 1000 } }, new MemoryState());
    // Past any table's bound first (MemoryState keeps 10,000 keys), so only growth beyond it counts.
    await askFor(guard, 0, 50_000);
    const before = heapAfterGc();
    await askFor(guard, 50_000, 200_000);
    const grownMb = (heapAfterGc() - before) / 2 ** 20;
    // Each origin remembered costs a few hundred bytes (its scope and limits): 200,000 of them,
    // tens of MB. A bounded table keeps the heap where it was.
    expect(grownMb).toBeLessThan(8);
  }, 60_000);
});
