// The schema and loopback upstream of the call benchmarks: one JSON answer (a price, or any the
// benchmark gives), served from its own process so that it does not share the measured event loop.

import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from './package-entry.js';

export const PRICE_ROUTE = `{
      method: 'GET', path: '/v1/price/{{symbol}}', description: 'The price of one symbol.',
      parameters: [
        { position: { key: 'symbol', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(1)'] } },
        { position: { key: 'currency', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(usd,eur)', options: ['default(usd)'] } }
      ],
      output: { mimeType: 'application/json', schema: { type: 'object', properties: {
        symbol: { type: 'string' }, currency: { type: 'string' }, price: { type: 'number', nullable: true }, updatedAt: { type: 'string', format: 'date-time' }
      } } },
      tests: [{ _description: 'eth', symbol: 'eth' }]
    }`;

/** Handlers of the route twin: a header from the arguments before, a rounded price after. */
const PRICE_HANDLERS = `export const handlers = ({ sharedLists, libraries }) => ({
  getRoundedPrice: {
    preRequest: ({ struct, payload }) => ({ struct: { ...struct, headers: { ...struct.headers, 'x-symbol': payload.symbol.toUpperCase() } } }),
    postRequest: ({ response }) => ({ response: { ...response, price: Math.round(response.price * 100) / 100 } })
  }
});
`;

/**
 * One GET route with a key header, an insert, a query default and an output schema; with
 * handlers, also its twin \`getRoundedPrice\` with a preRequest and a postRequest.
 */
export function priceSchema({ handlers }: { handlers: boolean }): string {
  return `export const main = {
  namespace: 'bench', name: 'Bench', description: 'Prices for the call benchmarks.', version: '2.0.0',
  root: 'https://api.bench.test',
  requiredServerParams: ['BENCH_KEY'],
  headers: { 'x-api-key': '{{BENCH_KEY}}' },
  routes: {
    getPrice: ${PRICE_ROUTE}${handlers ? `,\n    getRoundedPrice: ${PRICE_ROUTE}` : ''}
  }
};
${handlers ? PRICE_HANDLERS : ''}`;
}

const PRICE_ANSWER = JSON.stringify({
  symbol: 'eth',
  currency: 'usd',
  price: 3120.5,
  updatedAt: '2026-11-22T12:00:00Z',
});

/** Answers every request with the JSON file named by its first argument. */
const UPSTREAM = `
const http = require('node:http');
const body = require('node:fs').readFileSync(process.argv[2]);
const server = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); });
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
`;

/** Starts the price upstream from a script written into `dir`; resolves once it listens. */
export function startPriceUpstream(dir: string): Promise<{ child: ChildProcess; port: number }> {
  return startJsonUpstream(dir, PRICE_ANSWER);
}

/** Starts an upstream that answers every request with `answer` as JSON; resolves once it listens. */
export function startJsonUpstream(dir: string, answer: string): Promise<{ child: ChildProcess; port: number }> {
  const file = join(dir, 'upstream.cjs');
  const answerFile = join(dir, 'answer.json');
  writeFileSync(file, UPSTREAM);
  writeFileSync(answerFile, answer);
  const child = fork(file, [answerFile], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve) => child.once('message', (port) => resolve({ child, port: port as number })));
}

/** One call of the price route's `tool` (for `args`) in milliseconds; a failed call stops the benchmark. */
export async function timeCall(
  catalog: Catalog,
  tool: string,
  args: Record<string, unknown> = { symbol: 'eth' },
): Promise<number> {
  const start = process.hrtime.bigint();
  const result = await catalog.call(tool, args);
  const took = Number(process.hrtime.bigint() - start) / 1e6;
  if (!result.ok) throw new Error(`bench call of ${tool} failed: ${JSON.stringify(result)}`);
  return took;
}
