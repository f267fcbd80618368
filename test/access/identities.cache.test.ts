// Promise 13 where identities meet the response cache: an answer one identity's call put in the
// cache must never reach an identity that may not call that tool, whichever way it asks (a direct
// tools/call, call_tool in discovery mode, a group endpoint holding the tool), and a hit is drawn
// on the caller's own rate like any call. Real parts: a real OpenID provider on loopback issuing
// JWT access tokens (test/access/provider.ts), flowguard's HTTP server in this process with OAuth,
// identities and a group endpoint, a catalog of two cacheable namespaces (one needs a key, whose
// use only one identity is granted) against a loopback upstream that counts what it serves, and
// the official SDK client over Streamable HTTP.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Identities } from '../../src/access/identities.js';
import { prepareOAuth } from '../../src/access/setup.js';
import type { CallRecord } from '../../src/call/record.js';
import { startHttpServer, type McpHttpServer } from '../../src/edge/http.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { tempProject, type TempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { callRecordsDelivered } from '../support/wait.js';
import { startProvider, type TestClient, type TestProvider } from './provider.js';

const KEYED: TestClient = { id: 'keyed', secret: 'keyed-secret-0123456789abcdef', scope: 'tools:call' };
const KEYLESS: TestClient = { id: 'keyless', secret: 'keyless-secret-0123456789abcdef', scope: 'tools:call' };
const SEARCHER: TestClient = { id: 'searcher', secret: 'searcher-secret-0123456789abcdef', scope: 'tools:call' };
const METERED: TestClient = { id: 'metered', secret: 'metered-secret-0123456789abcdef', scope: 'tools:call' };

/** A cacheable schema of `namespace`; with `key`, every request carries it. */
const schema = (namespace: string, key?: string) => `export const main = {
  namespace: '${namespace}', name: 'Quotes', description: 'Cacheable quotes.', version: '4.0.0',
  root: 'https://api.${namespace}.test', tags: ['cacheTtlDaily'],
  requiredServerParams: [${key ? `'${key}'` : ''}],
  headers: { ${key ? `'x-api-key': '{{${key}}}'` : ''} },
  tools: {
    getQuote: { method: 'GET', path: '/quote/{{symbol}}', description: 'A quote of a symbol.',
      parameters: [{ position: { key: 'symbol', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }],
      tests: [{ _description: 'eth', symbol: 'eth' }] }
  }
};
`;

let provider: TestProvider;
let upstream: Upstream;
let project: TempProject;
let catalog: Catalog;
let server: McpHttpServer;
const records: CallRecord[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  provider = await startProvider([KEYED, KEYLESS, SEARCHER, METERED]);
  upstream = await startUpstream((_req, res, entry) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ url: entry.url, n: Math.random() }));
  });
  project = tempProject();
  mkdirSync(join(project.dir, 'schemas'));
  writeFileSync(join(project.dir, 'schemas', 'paid.mjs'), schema('paid', 'PAID_KEY'));
  writeFileSync(join(project.dir, 'schemas', 'free.mjs'), schema('free'));
  catalog = await Catalog.load({
    schemas: join(project.dir, 'schemas'),
    project: project.dir,
    env: {},
    keys: { PAID_KEY: 'paid-key-value-0123456789' },
    upstreams: { '*': upstream.origin },
  });
  catalog.onCall((record) => void records.push(record));
  const oauth = await prepareOAuth({ requiredScopes: ['tools:call'] }, { issuer: provider.issuer });
  const memory = new MemoryState();
  const identities = Identities.create(
    {
      keyed: { match: { clients: ['keyed'] }, keys: ['PAID_*'], tools: 'all' },
      // Every namespace, but no key: the paid tool is not its.
      keyless: { match: { clients: ['keyless'] }, keys: [], tools: 'all' },
      searcher: { match: { clients: ['searcher'] }, namespaces: ['free'], tools: 'search' },
      metered: {
        match: { clients: ['metered'] },
        tools: 'all',
        rateLimit: { requestsPerSecond: 0.001, burst: 1 },
      },
    },
    () => [],
    (bucket, capacity, refill) => memory.take(bucket, capacity, refill),
  );
  server = await startHttpServer(catalog, {
    port: 0,
    log: () => undefined,
    oauth,
    identities,
    groups: [{ name: 'paid', serving: { tools: catalog.tools.filter((tool) => tool.namespace === 'paid') } }],
  });
}, 60_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server?.close();
  await catalog?.close();
  await upstream?.close();
  await provider?.close();
  project?.remove();
});

async function connect(who: TestClient, path = ''): Promise<Client> {
  const token = await provider.token(who, server.resource as string, 'tools:call');
  const client = new Client({ name: 'cache-identities', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}${path}`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

/** A call's result; a refusal the SDK throws (an unknown tool) becomes its message. */
async function attempt(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult | string> {
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } catch (error) {
    return (error as Error).message;
  }
}
const text = (result: CallToolResult | string) =>
  typeof result === 'string' ? result : (result.content[0] as { text: string }).text;

describe('an answer in the cache, asked for by identities that may not call its tool', () => {
  it('reaches none of them, whichever way they ask; its own identity gets it from the cache', async () => {
    const keyed = await connect(KEYED);
    const fresh = text(await attempt(keyed, 'paid_getQuote', { symbol: 'eth' }));
    expect(fresh).toContain('/quote/eth');
    expect(text(await attempt(keyed, 'paid_getQuote', { symbol: 'eth' }))).toBe(fresh);
    const servedBefore = upstream.hits();

    const keyless = await connect(KEYLESS);
    const searcher = await connect(SEARCHER);
    const overGroup = await connect(KEYLESS, '/paid');
    const attempts = [
      await attempt(keyless, 'paid_getQuote', { symbol: 'eth' }),
      await attempt(searcher, 'call_tool', { name: 'paid_getQuote', arguments: { symbol: 'eth' } }),
      await attempt(searcher, 'paid_getQuote', { symbol: 'eth' }),
      await attempt(overGroup, 'paid_getQuote', { symbol: 'eth' }),
      await attempt(keyless, 'paid/paid.mjs::getQuote', { symbol: 'eth' }),
    ];
    for (const answer of attempts) {
      expect(text(answer)).not.toBe(fresh);
      expect(text(answer)).not.toContain('/quote/eth');
      expect(text(answer)).toMatch(/unknown tool/i);
    }
    expect(upstream.hits()).toBe(servedBefore);
    // Their own tool is theirs: the free namespace answers them.
    expect(text(await attempt(keyless, 'free_getQuote', { symbol: 'eth' }))).toContain('/quote/eth');
    await callRecordsDelivered();
    const hits = records.filter((record) => record.cache === 'hit');
    expect(hits.map((record) => [record.tool, record.caller?.identity])).toEqual([['paid_getQuote', 'keyed']]);
  });

  it("draws a hit on the caller's own rate: over it, the cached answer is not handed out", async () => {
    const metered = await connect(METERED);
    await attempt(metered, 'free_getQuote', { symbol: 'btc' });
    const overRate = await attempt(metered, 'free_getQuote', { symbol: 'btc' });
    expect(typeof overRate !== 'string' && overRate.isError).toBe(true);
    expect(text(overRate)).toMatch(/over its rate/);
    expect(text(overRate)).not.toContain('/quote/btc');
  });
});
