// `npm run bench`: every benchmark, each printing its figures next to a baseline measured in
// the same run on the same machine.

import { benchBridge } from './bridge.js';
import { benchCache } from './cache.js';
import { benchCalls } from './call.js';
import { benchHotPath } from './hot-path.js';
import { benchObserve } from './observe.js';
import { benchLoadAgainstBaseline } from './load.js';
import { benchRedaction } from './redact.js';
import { benchCatalogLoad, benchHandlerCost } from './sandbox.js';
import { benchValidate } from './validate.js';

const suites: Array<[string, () => string[] | Promise<string[]>]> = [
  ['validate', benchValidate],
  ['catalog load', benchCatalogLoad],
  ['load against an older build', benchLoadAgainstBaseline],
  ['handler cost', benchHandlerCost],
  ['tool calls', benchCalls],
  ['hot path against an older build', benchHotPath],
  ['observed calls', benchObserve],
  ['response cache', benchCache],
  ['executeRequest', benchBridge],
  ['answer redaction', benchRedaction],
  ['mcp', async () => (await import('./mcp.js')).benchMcp()],
  ['discovery', async () => (await import('./discovery/bench.js')).benchDiscovery()],
];

for (const [name, run] of suites) {
  try {
    for (const line of await run()) console.log(line);
  } catch (error) {
    console.error(`${name}: failed: ${(error as Error).stack ?? error}`);
    process.exitCode = 1;
  }
}
