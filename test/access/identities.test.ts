// Identities (issue 28, point 2) on the real fixture catalog: which caller maps to which identity,
// what its policy selects (namespaces, read-only tools, the keys its calls may use), the settings
// that cannot work, and an identity's own rate, attacked through flowguard's HTTP server with a
// static token that names the identity.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Identities, IdentityConfigError } from '../../src/access/identities.js';
import type { TakeToken } from '../../src/access/rate.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { RedisState } from '../../src/state/redis-state.js';
import { REDIS_INSTALLED, startRedis, type RedisServer } from '../state/redis-server.js';
import type { CallRecord } from '../../src/call/record.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { callRecordsDelivered } from '../support/wait.js';
import { postList } from '../edge/helpers.js';
import { AccessGate } from '../../src/edge/auth.js';
import { PROJECT, SCHEMAS, startCatalogUpstream, startHttpFixture, type CatalogUpstream } from '../mcp/helpers.js';

/** The buckets of one process, as a server without Redis keeps them. */
const memory = new MemoryState();
const take: TakeToken = (bucket, capacity, refill) => memory.take(bucket, capacity, refill);

const caller = (fields: { subject?: string; client?: string; scopes?: string[]; groups?: string[] }) => ({
  scopes: [],
  groups: [],
  ...fields,
});

describe('which identity a caller maps to', () => {
  const identities = Identities.create(
    {
      admins: { match: { groups: ['admins', 'root'], scopes: ['mcp:tools', 'mcp:admin'] } },
      bot: { match: { clients: ['billing'], subjects: ['svc-1'] } },
      everyone: { match: { scopes: ['mcp:tools'] } },
    },
    () => [],
    take,
  );

  it('takes the first identity whose match holds: every field, all scopes, any group', () => {
    expect(identities.resolve(caller({ groups: ['root'], scopes: ['mcp:admin', 'mcp:tools'] }))?.identity).toBe(
      'admins',
    );
    // One scope short of admins: the next identity that holds.
    expect(identities.resolve(caller({ groups: ['root'], scopes: ['mcp:tools'] }))?.identity).toBe('everyone');
    expect(identities.resolve(caller({ client: 'billing', subject: 'svc-1' }))?.identity).toBe('bot');
  });

  it('maps a caller that no identity names to none (refused), and any caller where none are configured', () => {
    expect(identities.resolve(caller({ client: 'billing', subject: 'svc-2' }))).toBeUndefined();
    expect(Identities.none().resolve(caller({ subject: 'x' }))).toEqual(caller({ subject: 'x' }));
  });

  it('refuses an identity that names no caller, and a group that does not verify, naming them', () => {
    expect(() => Identities.create({ lost: { namespaces: ['media'] } }, () => [], take)).toThrow(
      new IdentityConfigError(
        'identities.lost: names no caller: give it a match (subjects, clients, scopes or groups) or tokens',
      ),
    );
    expect(() =>
      Identities.create(
        { ops: { match: { clients: ['a'] }, groups: ['gone'] } },
        () => ({ refused: 'no group gone in groups.json' }),
        take,
      ),
    ).toThrow(/identities\.ops\.groups: group 'gone' cannot be served: no group gone in groups\.json/);
  });
});

describe('what an identity may list and call, on the fixture catalog', () => {
  let catalog: Catalog;
  beforeAll(async () => {
    catalog = await Catalog.load({
      schemas: SCHEMAS,
      project: PROJECT,
      env: { VAULT_API_KEY: 'vault-key-0123456789' },
      upstreams: { '*': 'http://127.0.0.1:9' },
    });
  });
  afterAll(() => catalog?.close());

  const selected = (settings: Parameters<typeof Identities.create>[0][string]) =>
    (
      Identities.create({ it: { match: { clients: ['c'] }, ...settings } }, () => [], take)
        .policy('it')
        ?.select(catalog.tools) ?? []
    ).map((tool) => tool.name);

  it('keeps a tool whose key the identity may not use from it, and gives it where the key is granted', () => {
    expect(catalog.tools.map((tool) => tool.name)).toContain('vault_getNote');
    expect(selected({ keys: [] })).not.toContain('vault_getNote');
    expect(selected({ keys: ['VAULT_*'] })).toContain('vault_getNote');
    expect(selected({})).toContain('vault_getNote');
  });

  it('selects read-only tools only where it says so', () => {
    expect(selected({ namespaces: ['media'] })).toContain('media_clearCache');
    const readOnly = selected({ namespaces: ['media'], readOnly: true });
    expect(readOnly).toContain('media_getReadme');
    expect(readOnly).not.toContain('media_clearCache');
  });
});

describe("an identity's own rate, through the HTTP server", () => {
  const TOKEN = 'rate-limited-token-0123456789abcdef';
  const OTHER_TOKEN = 'other-identity-token-0123456789abc';
  let upstream: CatalogUpstream;
  let served: Awaited<ReturnType<typeof startHttpFixture>>;
  beforeAll(async () => {
    upstream = await startCatalogUpstream();
    const digest = `sha256:${createHash('sha256').update(TOKEN).digest('hex')}`;
    // One call, then a token every 1000 s: the second call is over the rate, whatever the machine's speed.
    const otherDigest = `sha256:${createHash('sha256').update(OTHER_TOKEN).digest('hex')}`;
    const identities = Identities.create(
      {
        slow: { tokens: [digest], rateLimit: { requestsPerSecond: 0.001, burst: 1 } },
        // As slow, in a bucket of its own: slow's calls over its rate take nothing of it.
        other: { tokens: [otherDigest], rateLimit: { requestsPerSecond: 0.001, burst: 1 } },
      },
      () => [],
      take,
    );
    served = await startHttpFixture(upstream, {
      identities,
      access: AccessGate.create({ host: '127.0.0.1', namedTokens: identities.namedTokens() }),
    });
    // The catalog starts its sandbox here: more than the default 10 s on a loaded machine.
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    await upstream?.close();
  });

  const call = (token = TOKEN) =>
    fetch(served.server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'widgets_getWidget', arguments: { id: 'w-1' } },
      }),
    }).then(
      async (response) =>
        (await response.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } },
    );

  it('answers the call within its rate, and the one over it a rate-limited error with when to retry, recorded with its caller', async () => {
    const records: CallRecord[] = [];
    served.catalog.onCall((record) => void records.push(record));
    const mark = upstream.records.length;
    expect((await call()).result.isError).toBeFalsy();
    const over = (await call()).result;
    expect(over.isError).toBe(true);
    expect(over.content[0]?.text).toMatch(
      /^Error \(rate-limited\): the calls of identity slow are over its rate \(identities\.slow\.rateLimit\)\nRetry after: \d+/,
    );
    // The refused call never reached the API, and the audit still hears of it, with who it was.
    expect(upstream.since(mark)).toHaveLength(1);
    await callRecordsDelivered();
    expect(records.map((record) => [record.tool, record.outcome, record.caller])).toEqual([
      ['widgets_getWidget', 'ok', { identity: 'slow', subject: 'static-token', client: undefined }],
      ['widgets_getWidget', 'rate-limited', { identity: 'slow', subject: 'static-token', client: undefined }],
    ]);
  });

  it("leaves another identity's rate whole: its call is answered while slow's are refused", async () => {
    expect((await call()).result.isError).toBe(true);
    const mark = upstream.records.length;
    expect((await call(OTHER_TOKEN)).result.isError).toBeFalsy();
    expect(upstream.since(mark)).toHaveLength(1);
    expect((await call()).result.isError).toBe(true);
  });
});

describe('an identity in discovery mode, through the HTTP server', () => {
  const TOKEN = 'finder-token-0123456789abcdef';
  let upstream: CatalogUpstream;
  let served: Awaited<ReturnType<typeof startHttpFixture>>;
  beforeAll(async () => {
    upstream = await startCatalogUpstream();
    const digest = `sha256:${createHash('sha256').update(TOKEN).digest('hex')}`;
    const identities = Identities.create(
      { finder: { tokens: [digest], namespaces: ['media'], tools: 'search' } },
      () => [],
      take,
    );
    served = await startHttpFixture(upstream, {
      identities,
      access: AccessGate.create({ host: '127.0.0.1', namedTokens: identities.namedTokens() }),
    });
    // The catalog starts its sandbox here: more than the default 10 s on a loaded machine.
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    await upstream?.close();
  });

  const rpc = async (method: string, params: Record<string, unknown>) => {
    const response = await fetch(served.server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${TOKEN}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await response.json()) as {
      result?: {
        tools?: Array<{ name: string }>;
        structuredContent?: { tools: Array<{ name: string }> };
        isError?: boolean;
        content?: Array<{ text: string }>;
      };
      error?: { message: string };
    };
  };

  it('lists the meta-tools, finds only its namespace, and cannot call outside it through call_tool', async () => {
    expect((await rpc('tools/list', {})).result?.tools?.map((tool) => tool.name).sort()).toEqual([
      'call_tool',
      'describe_tool',
      'search_tools',
    ]);
    const widgets = await rpc('tools/call', { name: 'search_tools', arguments: { query: 'widget' } });
    expect(
      (widgets.result?.structuredContent?.tools ?? [])
        .map((tool) => tool.name)
        .filter((name) => !name.startsWith('media_')),
    ).toEqual([]);
    const readme = await rpc('tools/call', { name: 'search_tools', arguments: { query: 'readme' } });
    expect(readme.result?.structuredContent?.tools.map((tool) => tool.name)).toContain('media_getReadme');
    const outside = await rpc('tools/call', {
      name: 'call_tool',
      arguments: { name: 'widgets_getWidget', arguments: { id: 'w-1' } },
    });
    expect(JSON.stringify(outside)).toMatch(/Unknown tool: widgets_getWidget/);
  });
});

describe('static tokens once identities are configured', () => {
  const NAMED = 'named-token-0123456789abcdef';
  const PLAIN = 'plain-token-0123456789abcdef';
  let upstream: CatalogUpstream;
  let served: Awaited<ReturnType<typeof startHttpFixture>>;
  beforeAll(async () => {
    upstream = await startCatalogUpstream();
    const digest = `sha256:${createHash('sha256').update(NAMED).digest('hex')}`;
    const identities = Identities.create({ ops: { tokens: [digest], namespaces: ['media'] } }, () => [], take);
    served = await startHttpFixture(upstream, {
      identities,
      access: AccessGate.create({ host: '127.0.0.1', tokens: [PLAIN], namedTokens: identities.namedTokens() }),
    });
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    await upstream?.close();
  });

  it('admits a token an identity lists, and refuses (403) a valid token no identity lists', async () => {
    const list = (token: string) => postList(served.server.url, { authorization: `Bearer ${token}` });
    expect((await list(NAMED)).status).toBe(200);
    const plain = await list(PLAIN);
    expect(plain.status).toBe(403);
    expect(plain.body).toContain(
      "no identity of this server's config names this caller (subject static-token, client (none))",
    );
    expect((await list('not-a-token-of-this-server-0123')).status).toBe(401);
  });
});

// Replicas behind a balancer (docs/operators/deploying.md) draw on one bucket per identity: the
// second call through the other replica is over the rate, as it would be through the first.
describe.skipIf(!REDIS_INSTALLED)("an identity's rate across replicas sharing Redis", () => {
  let redis: RedisServer;
  const states: RedisState[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    for (const state of states) await state.close();
    await redis?.kill();
  });

  const replica = async (): Promise<Identities> => {
    const state = new RedisState(redis.url, { keyPrefix: 'fg:', commandTimeoutMs: 2000 });
    await state.connect(5000);
    states.push(state);
    return Identities.create(
      { slow: { tokens: ['sha256:' + '0'.repeat(64)], rateLimit: { requestsPerSecond: 0.001, burst: 1 } } },
      () => [],
      (bucket, capacity, refill) => state.take(bucket, capacity, refill),
    );
  };

  it('refuses the call over the rate at one replica after the call within it at the other', async () => {
    const [first, second] = [await replica(), await replica()];
    expect(await first.policy('slow')?.limiter?.take()).toBeUndefined();
    const wait = await second.policy('slow')?.limiter?.take();
    expect(wait).toBeGreaterThanOrEqual(1);
    // The control: buckets of one process each, as before, would have let the second call go.
    const alone = Identities.create(
      { slow: { tokens: ['sha256:' + '0'.repeat(64)], rateLimit: { requestsPerSecond: 0.001, burst: 1 } } },
      () => [],
      (bucket, capacity, refill) => new MemoryState().take(bucket, capacity, refill),
    );
    expect(await alone.policy('slow')?.limiter?.take()).toBeUndefined();
  });
});
