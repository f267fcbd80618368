// Prompts where identities are configured (promise 13: an identity lists, searches and calls only
// its tools; a tool it cannot see is an unknown tool to it). An identity limited to the weather
// namespace asks for the prompts of the shop namespace, and for a prompt of no namespace that
// names a shop tool: it must neither list nor get the shop's prompts, nor be told a shop tool's
// name, which its tools/list, search and calls hide (prompts name tools "as the client sees
// them"; a tool it cannot call is said to be unavailable). An identity that sees every tool is
// the control. Real parts: the 3.x and 4.x prompt fixtures in one schemas folder, a real catalog,
// flowguard's HTTP server in this process with static tokens naming the identities, and the
// official SDK client over Streamable HTTP; the same through group endpoints (`/mcp/<group>`).

import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TextContent } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Identities } from '../../src/access/identities.js';
import { AccessGate } from '../../src/edge/auth.js';
import { startHttpServer, type McpHttpServer } from '../../src/edge/http.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { promptsForGroup } from '../../src/prompts/served.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { ROOT } from './helpers.js';

const TOKENS = { weather: 'weather-token-0123456789abcdef', everyone: 'everyone-token-0123456789abcdef' };
const digest = (token: string) => `sha256:${createHash('sha256').update(token).digest('hex')}`;

/** A prompt of no namespace (its folder holds no schema) that names a shop tool. */
const GENERAL_PROMPT = `export const prompt = {
    name: 'overview',
    version: 'flowmcp-prompt/1.0.0',
    description: 'An overview',
    dependsOn: [],
    references: [],
    content: 'Find a widget with {{tool:shop/getWidget}}, then the weather with {{tool:weather/getForecast}}.'
}
`;

let folder: string;
let catalog: Catalog;
let server: McpHttpServer;
const clients: Client[] = [];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'flowguard-prompt-identities-'));
  const schemas = join(folder, 'schemas');
  cpSync(join(ROOT, 'test', 'fixtures', 'prompts', 'v3', 'shop'), join(schemas, 'shop'), { recursive: true });
  cpSync(join(ROOT, 'test', 'fixtures', 'prompts', 'v4', 'providers'), join(schemas, 'providers'), { recursive: true });
  mkdirSync(join(schemas, 'general', 'prompts'), { recursive: true });
  writeFileSync(join(schemas, 'general', 'prompts', 'overview.mjs'), GENERAL_PROMPT);
  mkdirSync(join(folder, 'project'));
  catalog = await Catalog.load({ schemas, project: join(folder, 'project'), env: {} });
  const memory = new MemoryState();
  const identities = Identities.create(
    {
      weather: { tokens: [digest(TOKENS.weather)], namespaces: ['weather'] },
      everyone: { tokens: [digest(TOKENS.everyone)] },
    },
    () => [],
    (bucket, capacity, refill) => memory.take(bucket, capacity, refill),
  );
  // Group endpoints as serve --group makes them: one of both namespaces, with a prompt of its own
  // that names a tool of each, and one of the shop's tools alone.
  const overview = catalog.prompts.find((prompt) => prompt.name === 'overview');
  if (!overview) throw new Error('the overview prompt did not load');
  const shopTools = catalog.visibleTools().filter((tool) => tool.namespace === 'shop');
  const groups = [
    {
      name: 'mixed',
      serving: {
        tools: catalog.visibleTools(),
        prompts: promptsForGroup([{ ...overview, name: 'mixed_overview' }], catalog.prompts, catalog.visibleTools()),
      },
    },
    { name: 'shoponly', serving: { tools: shopTools, prompts: promptsForGroup([], catalog.prompts, shopTools) } },
  ];
  server = await startHttpServer(catalog, {
    port: 0,
    log: () => undefined,
    identities,
    groups,
    access: AccessGate.create({ host: '127.0.0.1', namedTokens: identities.namedTokens() }),
  });
}, 60_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server?.close();
  await catalog?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function connect(identity: keyof typeof TOKENS, group?: string): Promise<Client> {
  const client = new Client({ name: 'prompt-identities', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(group === undefined ? server.url : `${server.url}/${group}`), {
      requestInit: { headers: { authorization: `Bearer ${TOKENS[identity]}` } },
    }),
  );
  clients.push(client);
  return client;
}

const textOf = (result: { messages: Array<{ content: unknown }> }) =>
  result.messages.map((message) => (message.content as TextContent).text).join('\n');
const listed = async (client: Client) => (await client.listPrompts()).prompts.map((prompt) => prompt.name).sort();

describe('prompts, for an identity that sees every tool (the control)', () => {
  it('lists every prompt and names every tool its prompts use', async () => {
    const client = await connect('everyone');
    expect(await listed(client)).toEqual(['overview', 'shop_find-widget', 'weather_packing-list', 'weather_plan-trip']);
    const shop = textOf(await client.getPrompt({ name: 'shop_find-widget', arguments: { widgetId: 'w-1' } }));
    expect(shop).toContain('shop_getWidget');
    expect(textOf(await client.getPrompt({ name: 'overview' }))).toContain('shop_getWidget');
  });
});

describe('prompts, for an identity limited to the weather namespace', () => {
  it('lists no prompt of a namespace it cannot see, and gets none', async () => {
    const client = await connect('weather');
    expect(await listed(client)).toEqual(['overview', 'weather_packing-list', 'weather_plan-trip']);
    await expect(client.getPrompt({ name: 'shop_find-widget', arguments: { widgetId: 'w-1' } })).rejects.toThrow(
      /Unknown prompt/,
    );
  });

  it('is never told the name of a tool it cannot call: the prompt says the tool is not available', async () => {
    const client = await connect('weather');
    const text = textOf(await client.getPrompt({ name: 'overview' }));
    expect(text).not.toContain('shop_getWidget');
    expect(text).toContain('weather_getForecast');
    expect(text).toContain('shop/getWidget (a tool this server does not offer)');
  });
});

// A seventh review: the same rules through group endpoints (`/mcp/<group>`), where the group's
// tools and prompts are what the endpoint serves and the identity narrows them again.
describe('prompts through a group endpoint, for an identity limited to the weather namespace', () => {
  it("lists and gets no prompt of the group's other namespace; the group's own prompt names its tools as unavailable", async () => {
    const everyone = await connect('everyone', 'mixed');
    expect(await listed(everyone)).toEqual([
      'mixed_overview',
      'shop_find-widget',
      'weather_packing-list',
      'weather_plan-trip',
    ]);
    const client = await connect('weather', 'mixed');
    expect(await listed(client)).toEqual(['mixed_overview', 'weather_packing-list', 'weather_plan-trip']);
    await expect(client.getPrompt({ name: 'shop_find-widget', arguments: { widgetId: 'w-1' } })).rejects.toThrow(
      /Unknown prompt/,
    );
    const text = textOf(await client.getPrompt({ name: 'mixed_overview' }));
    expect(text).not.toContain('shop_getWidget');
    expect(text).toContain('weather_getForecast');
  });

  it('gets no prompt of a group whose tools it sees none of', async () => {
    const client = await connect('weather', 'shoponly');
    expect((await client.listTools()).tools).toEqual([]);
    expect(await listed(client)).toEqual([]);
    await expect(client.getPrompt({ name: 'shop_find-widget', arguments: { widgetId: 'w-1' } })).rejects.toThrow(
      /Unknown prompt/,
    );
  });
});
