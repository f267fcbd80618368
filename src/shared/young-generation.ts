// Checking a catalog parses every file into a syntax tree that lives a few milliseconds. V8
// answers that allocation by growing its young generation up to the largest it may be (two 16 MiB
// semi-spaces in Node 20), and a process keeps that memory. Held at its starting size (1 MiB), the
// young generation is collected about 80 times on the 234 files of the 2.0.0 corpus, 0.15 s in
// all; left to grow, 20 times and 0.06 s, for 20 MiB more at the peak. While a catalog loads it
// may grow to 8 MiB semi-spaces and no further: about 24 collections and 0.07 s, for 5 MiB
// (`node --trace-gc`, bench/load.ts). Only how far the young generation grows changes, and only
// while a load runs; an operator who passes `--semi-space-growth-factor` to node keeps their own.

import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const FLAG = 'semi-space-growth-factor';
/** V8's own value of the flag. */
const DEFAULT_GROWTH = 2;
/** The new space (both semi-spaces) a load lets V8 grow to, in bytes. */
const NEW_SPACE_CAP = 16 * 2 ** 20;

let loadsRunning = 0;
let growthStopped = false;

function setByOperator(): boolean {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  return given.includes(FLAG) || given.includes(FLAG.replaceAll('-', '_'));
}

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

function setGrowth(factor: number): void {
  setFlagsFromString(`--${FLAG}=${factor}`);
}

/**
 * Runs `load` with the young generation's growth bounded. `load` calls the `checkpoint` it is
 * given between units of work (each file): V8 grows the space at a collection, and the checkpoint
 * stops further growth once the space has reached the cap.
 */
export async function withBoundedYoungGeneration<T>(load: (checkpoint: () => void) => Promise<T>): Promise<T> {
  if (setByOperator()) return load(() => undefined);
  const checkpoint = () => {
    if (!growthStopped && newSpaceBytes() >= NEW_SPACE_CAP) {
      growthStopped = true;
      setGrowth(1);
    }
  };
  loadsRunning += 1;
  checkpoint();
  try {
    return await load(checkpoint);
  } finally {
    if (--loadsRunning === 0 && growthStopped) {
      growthStopped = false;
      setGrowth(DEFAULT_GROWTH);
    }
  }
}
