// The cost of redacting upstream answers (decision R4). Two schemas in one catalog, the same
// route with the same pass-through postRequest against one loopback upstream that answers
// 100 kB of JSON without any key: one sends a key in a header, so its answer is checked for
// every form of that key before the handler sees it; its keyless twin sends none, so nothing is
// checked. Both share everything else, the final redaction of the result included (the catalog
// knows the key for both). The calls are interleaved, and the cost is the p50 of the per-pair
// differences. The step alone is also timed in process on the same answer, and set against the
// cheapest call of that answer too (a route without handlers, which does not run the step);
// and the final redaction of that result next to the JSON.stringify it used to start with.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../src/runtime/catalog.js';
import { decodeBody } from '../src/http/decode.js';
import { Redactor } from '../src/http/redact.js';
import { formatMs, median, percentile, timeMs } from './stats.js';
import { startJsonUpstream, timeCall } from './upstream.js';

const CALLS = 400;
const WARM_UP = 40;
const STEP_RUNS = 2000;
const TARGET_SHARE = 0.05;
/** An API key as most providers issue them: 32 letters and digits. */
const KEY = 'Fq7XK2mB9pLw4Rz8Tn3Vd6Hs1Yc5Ge0J';

/** About 100 kB of market data, as a listing endpoint answers: strings, numbers, URLs, a few accents. */
function hundredKilobyteAnswer(): string {
  const names = ['Ether', 'Bitcoin', 'Solana', 'Cardano', 'Polkadot', 'Crème Brûlée Coin', 'Zürich Token'];
  const items = Array.from({ length: 520 }, (_, i) => ({
    id: i,
    symbol: `SYM${i}`,
    name: `${names[i % names.length]} ${i}`,
    price: Math.round(((i * 7919) % 100_000) * 1.37) / 100,
    change24h: ((i * 31) % 200) / 10 - 10,
    url: `https://market.example.com/assets/${i}/overview?ref=listing`,
    updatedAt: `2026-11-22T12:${String(i % 60).padStart(2, '0')}:00Z`,
    tags: ['layer-1', i % 2 ? 'defi' : 'payments'],
  }));
  return JSON.stringify({ total: items.length, items });
}

function schema(namespace: string, withKey: boolean): string {
  return `export const main = {
  namespace: '${namespace}', name: 'Bench', description: 'A 100 kB listing, ${withKey ? 'with' : 'without'} a key.', version: '2.0.0',
  root: 'https://api.bench.test',
  ${withKey ? "requiredServerParams: ['BENCH_KEY'], headers: { 'x-api-key': '{{BENCH_KEY}}' }," : ''}
  routes: {
    listing: { method: 'GET', path: '/v1/listing', description: 'Every asset.', parameters: [], tests: [{ _description: 'all' }] },
    plainListing: { method: 'GET', path: '/v1/listing', description: 'Every asset, no handler.', parameters: [], tests: [{ _description: 'all' }] }
  }
};
export const handlers = ({ sharedLists, libraries }) => ({ listing: { postRequest: ({ response }) => ({ response }) } });
`;
}

export async function benchRedaction(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-bench-redact-'));
  const answer = hundredKilobyteAnswer();
  const { child, port } = await startJsonUpstream(dir, answer);
  writeProject(dir);
  const catalog = await Catalog.load({
    schemas: join(dir, 'schemas'),
    project: dir,
    env: {},
    upstreams: { '*': `http://127.0.0.1:${port}` },
  });
  try {
    const keyed: number[] = [];
    const keyless: number[] = [];
    const extra: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < CALLS + WARM_UP; i += 1) {
      const withKey = await timeCall(catalog, 'keyed_listing', {});
      const without = await timeCall(catalog, 'keyless_listing', {});
      const noHandler = await timeCall(catalog, 'keyed_plainListing', {});
      if (i >= WARM_UP) {
        keyed.push(withKey);
        keyless.push(without);
        extra.push(withKey - without);
        plain.push(noHandler);
      }
    }
    const p50 = median(keyed);
    const cost = median(extra);
    const step = stepCosts(answer);
    return [
      `answer redaction: ${CALLS} interleaved in-process calls of a route with a key and a pass-through postRequest, answer 100 kB of JSON without the key, next to its keyless twin (same catalog, handler and upstream; its answer is not checked)`,
      `  with a key: p50 ${formatMs(p50)}, p99 ${formatMs(percentile(keyed, 99))}; keyless twin: p50 ${formatMs(median(keyless))}, p99 ${formatMs(percentile(keyless, 99))}`,
      `  cost of redacting the answer before the handler (p50 of per-pair differences): ${formatMs(cost)} = ${percent(cost / p50)} of catalog.call p50; target at most ${percent(TARGET_SHARE)}: ${cost <= TARGET_SHARE * p50 ? 'met' : 'MISSED'}`,
      `  the step alone on that answer (${STEP_RUNS} runs in process): p50 ${formatMs(step.answer)} = ${percent(step.answer / p50)} of catalog.call p50, ${percent(step.answer / median(plain))} of the p50 of the same answer through the keyed route without handlers (${formatMs(median(plain))}), which never pays it`,
      `  final redaction of that 100 kB result: p50 ${formatMs(step.result)}; baseline JSON.stringify of it, which it used to start with: p50 ${formatMs(step.stringify)}`,
    ];
  } finally {
    await catalog.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The two schemas and the .env with the key. */
function writeProject(dir: string): void {
  const schemas = join(dir, 'schemas');
  mkdirSync(schemas);
  writeFileSync(join(schemas, 'keyed.mjs'), schema('keyed', true));
  writeFileSync(join(schemas, 'keyless.mjs'), schema('keyless', false));
  // In the project's .env: a key the operator wrote for flowguard needs no grant.
  writeFileSync(join(dir, '.env'), `BENCH_KEY=${KEY}\n`);
}

/** The redaction steps alone, in process, on the benchmark's answer. */
function stepCosts(answer: string): { answer: number; result: number; stringify: number } {
  const redactor = new Redactor(new Map([['BENCH_KEY', KEY]]));
  const body = Buffer.from(answer);
  const response = { body, headers: { 'content-type': 'application/json' } };
  const decoded = decodeBody(body, response.headers['content-type']);
  if (decoded.kind !== 'json') throw new Error('the bench answer is not JSON');
  const result = { ok: true, status: 200, content: decoded };
  const runs = { answer: [] as number[], result: [] as number[], stringify: [] as number[] };
  for (let i = 0; i < STEP_RUNS; i += 1) {
    runs.answer.push(timeMs(() => redactor.redactAnswer(decoded, response)));
    runs.result.push(timeMs(() => redactor.redactValue(result)));
    runs.stringify.push(timeMs(() => JSON.stringify(result)));
  }
  return { answer: median(runs.answer), result: median(runs.result), stringify: median(runs.stringify) };
}

const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;
