// Issue 14, point 3 (decision R12): executeRequest routes are served and the core still performs
// every request. Real parts: the schemas in test/fixtures/bridge load in the real sandbox, their
// `fetch` and ethers providers ask the host, and loopback servers stand for the upstreams (each
// schema origin mapped by an `upstreams` override, so nothing leaves the machine).

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { schemaRows } from '../../src/cli/list.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'bridge', 'schemas');
const FETCH_KEY = 'fetch-key-value-0123456789';
const RPC_KEY = 'rpc-key-value-9876543210';

/** A fake JSON-RPC node: chain id 1, block 16, and `name()` answering "Flow"; batches too. */
class FakeNode {
  readonly methods: string[] = [];
  private constructor(private readonly upstream: Upstream) {}
  get origin(): string {
    return this.upstream.origin;
  }
  /** The request path of every call the node received. */
  get paths(): string[] {
    return this.upstream.records.map((entry) => entry.url);
  }
  static async start(): Promise<FakeNode> {
    const node: FakeNode = new FakeNode(
      await startUpstream((_req, res, entry) => {
        const body = JSON.parse(entry.body) as unknown;
        const answer = (call: { id: number; method: string }) => {
          node.methods.push(call.method);
          return { jsonrpc: '2.0', id: call.id, result: FakeNode.result(call.method) };
        };
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body as { id: number; method: string })),
        );
      }),
    );
    return node;
  }
  static result(method: string): unknown {
    switch (method) {
      case 'eth_chainId':
        return '0x1';
      case 'net_version':
        return '1';
      case 'eth_blockNumber':
        return '0x10';
      case 'eth_call': {
        const word = (hex: string) => hex.padStart(64, '0');
        return `0x${word('20')}${word('4')}${Buffer.from('Flow').toString('hex').padEnd(64, '0')}`;
      }
      default:
        return null;
    }
  }
  close(): Promise<void> {
    return this.upstream.close();
  }
}

let upstream: Upstream;
let internal: Upstream;
let node: FakeNode;
let catalog: Catalog;
let project: { dir: string; remove: () => void };

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.includes('q=slow')) {
      setTimeout(() => res.end(JSON.stringify({ path: req.url, key: 'kept' })), 600);
      return;
    }
    if (req.url?.startsWith('/echo-escaped')) {
      // Only parsing reveals the key: no form of it stands in the bytes.
      const escaped = [...String(req.headers['x-api-key'])]
        .map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join('');
      res.end(`{"key":"${escaped}"}`);
      return;
    }
    if (req.url?.startsWith('/echo')) res.setHeader('x-echo', String(req.headers['x-api-key']));
    res.end(
      JSON.stringify({
        path: req.url,
        key: req.url?.startsWith('/echo') ? req.headers['x-api-key'] : 'kept',
        pad: 'x'.repeat(100),
      }),
    );
  });
  internal = await startUpstream();
  node = await FakeNode.start();
  project = tempProject({ network: { allow: { fetcher: [internal.origin] }, maxRequestsPerCall: 5 } });
  catalog = await Catalog.load({
    schemas: SCHEMAS,
    project: project.dir,
    keys: { FETCH_KEY, RPC_KEY },
    upstreams: {
      'https://api.fetcher.test': upstream.origin,
      'https://other.fetcher.test': upstream.origin,
      'https://api.stranger.test': upstream.origin,
      'https://mainnet.rpc.test': node.origin,
    },
    sandbox: { size: 2 },
  });
});
afterAll(async () => {
  await catalog?.close();
  project?.remove();
  await Promise.all([upstream?.close(), internal?.close(), node?.close()]);
});

describe('executeRequest routes are served', () => {
  it('loads every schema with executeRequest and no error', () => {
    expect(catalog.findings().filter((f) => f.severity === 'error')).toEqual([]);
    expect(catalog.tool('compute_keccak')?.hooks).toEqual(['executeRequest']);
  });

  it('each schema’s reach, as list --json shows it: the root (keys bound), origins written in the file, the operator’s additions', () => {
    const rows = schemaRows(catalog);
    expect(rows.find((row) => row.namespace === 'fetcher')?.reach).toEqual({
      origins: [
        { origin: 'https://api.fetcher.test', source: 'root', keys: ['FETCH_KEY'] },
        { origin: 'https://other.fetcher.test', source: 'file' },
        { origin: internal.origin, source: 'config' },
      ],
      denied: [],
    });
    expect(rows.find((row) => row.namespace === 'rpc')?.reach?.origins).toEqual([
      { origin: 'https://--chain--.rpc.test', source: 'root', keys: ['RPC_KEY'] },
    ]);
  });

  it('a compute-only handler gives known values and makes no request', async () => {
    const hash = await catalog.call('compute_keccak', { text: 'hello' });
    expect(hash).toMatchObject({
      ok: true,
      content: { kind: 'json', value: { hash: '0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8' } },
      requests: [],
    });
    const sma = await catalog.call('compute_sma', {});
    // indicatorts averages the first values over what there is so far.
    expect(sma).toMatchObject({ ok: true, content: { value: [1, 1.5, 2, 3, 4, 5] } });
  });

  it('the handler sees the request as the core builds it, with the key as a token only', async () => {
    const result = await catalog.call('fetcher_seen', {});
    expect(result.ok).toBe(true);
    const text = JSON.stringify(result);
    expect(text).not.toContain(FETCH_KEY);
    const seen = (
      result as { content: { value: { payload: Record<string, unknown>; struct: Record<string, unknown> } } }
    ).content.value;
    expect(seen.payload).toMatchObject({
      url: 'https://api.fetcher.test/data',
      method: 'GET',
      userParams: { _allParams: {} },
    });
    expect((seen.payload.serverParams as Record<string, string>).FETCH_KEY).toMatch(/^__secret_FETCH_KEY_[0-9a-f]+__$/);
    expect(seen.struct).toMatchObject({ status: true, messages: [], data: null });
  });

  it('a fetch handler: the core sends the request with the key filled in, records it, and the key never comes back', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('fetcher_get', { q: 'abc' });
    expect(result).toMatchObject({
      ok: true,
      content: { value: { status: 200, body: { path: '/data?q=abc', key: 'kept' } } },
    });
    const sent = upstream.since(mark);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['x-api-key']).toBe(FETCH_KEY);
    expect((result as { requests: unknown[] }).requests).toEqual([
      {
        origin: 'https://api.fetcher.test',
        method: 'GET',
        status: 200,
        bytes: expect.any(Number),
        ms: expect.any(Number),
      },
    ]);
  });

  it('an upstream that echoes the key: the handler sees it redacted, in the body and in headers', async () => {
    const result = await catalog.call('fetcher_echo', {});
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain(FETCH_KEY);
    expect(JSON.stringify(result)).toContain('[redacted FETCH_KEY]');
  });

  it('an upstream that echoes the key \\u-escaped in JSON: the handler parses it and still sees it redacted', async () => {
    const result = await catalog.call('fetcher_echoEscaped', {});
    expect(result).toMatchObject({ ok: true, content: { value: { key: '[redacted FETCH_KEY]' } } });
    const text = JSON.stringify(result);
    expect(text).not.toContain(FETCH_KEY);
    expect(text).not.toContain([...FETCH_KEY].reverse().join(''));
  });

  it('an ethers JsonRpcProvider and a Contract work unchanged against a JSON-RPC node, the key arriving upstream', async () => {
    const result = await catalog.call('rpc_block', {});
    expect(result).toMatchObject({ ok: true, content: { value: { chainId: 1, blockNumber: 16, name: 'Flow' } } });
    expect(node.paths.every((path) => path === `/v2/${RPC_KEY}`)).toBe(true);
    expect(node.methods).toEqual(expect.arrayContaining(['eth_chainId', 'eth_blockNumber', 'eth_call']));
    expect(JSON.stringify(result)).not.toContain(RPC_KEY);
  });
});

describe('attacks on the bridge', () => {
  it('an origin outside the reach: HOST_NOT_ALLOWED, nothing sent', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('fetcher_any', { url: 'https://evil.test/x' });
    expect(result).toMatchObject({
      ok: false,
      error: {
        kind: 'handler',
        message: expect.stringContaining('HOST_NOT_ALLOWED: https://evil.test is not in the reach of fetcher'),
      },
    });
    expect(upstream.records.length).toBe(mark);
  });

  it('a key token sent to an origin in the reach but not bound to the key: refused, nothing sent', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('fetcher_leak', {});
    expect(result).toMatchObject({
      ok: false,
      error: {
        message: expect.stringContaining(
          'KEY_NOT_ALLOWED: the request to https://other.fetcher.test carries the key FETCH_KEY',
        ),
      },
    });
    expect(upstream.records.length).toBe(mark);
  });

  it('a private address the operator added to the reach is refused unless network.allowPrivate names it', async () => {
    const mark = internal.records.length;
    const refused = await catalog.call('fetcher_any', { url: `${internal.origin}/x` });
    expect(refused).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/upstream request failed: .*(private|loopback|non-public)/i) },
    });
    expect(internal.records.length).toBe(mark);
    // Another namespace's allow does not widen this one's reach.
    const stranger = await catalog.call('stranger_borrow', { url: `${internal.origin}/x` });
    expect(stranger).toMatchObject({ ok: false, error: { message: expect.stringContaining('HOST_NOT_ALLOWED') } });
    const allowing = tempProject({
      network: { allow: { fetcher: [internal.origin] }, allowPrivate: [internal.origin] },
    });
    const allowed = await Catalog.load({
      schemas: join(SCHEMAS, 'fetcher.mjs'),
      project: allowing.dir,
      keys: { FETCH_KEY },
      sandbox: { size: 1 },
    });
    try {
      expect(await allowed.call('fetcher_any', { url: `${internal.origin}/x` })).toMatchObject({ ok: true });
      expect(internal.records.length).toBe(mark + 1);
    } finally {
      await allowed.close();
      allowing.remove();
    }
  });

  it('ethers pointed at a host outside the reach: refused, nothing sent', async () => {
    const before = node.paths.length;
    const result = await catalog.call('rpc_elsewhere', { url: 'https://evil.test/rpc' });
    expect(result).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('HOST_NOT_ALLOWED: https://evil.test is not in the reach of rpc') },
    });
    expect(node.paths.length).toBe(before);
  });

  it('a request flood stops at the per-call bound', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('fetcher_flood', {});
    expect(result.ok).toBe(true);
    const outcomes = (result as { content: { value: unknown[] } }).content.value;
    expect(outcomes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(outcomes[5]).toMatch(/^TOO_MANY_REQUESTS: /);
    expect(upstream.records.length).toBe(mark + 5);
  });

  it('fetch in a postRequest is a network attempt (SEC100), not a request', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('fetcher_post', {});
    expect(result).toMatchObject({ ok: false, error: { kind: 'handler', code: 'SEC100' } });
    expect(upstream.records.length).toBe(mark + 1);
  });

  it('two schemas called at once each keep their own reach', async () => {
    const mark = upstream.records.length;
    const calls = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? catalog.call('fetcher_get', { q: String(i) })
          : catalog.call('stranger_borrow', { url: `https://api.fetcher.test/data?q=${i}` }),
      ),
    );
    calls.forEach((result, i) => {
      if (i % 2 === 0) expect(result.ok).toBe(true);
      else
        expect(result).toMatchObject({
          ok: false,
          error: {
            message: expect.stringContaining(
              'HOST_NOT_ALLOWED: https://api.fetcher.test is not in the reach of stranger',
            ),
          },
        });
    });
    expect(upstream.records.length).toBe(mark + 3);
  });
});

describe('time and byte bounds of a bridged call', () => {
  it('the handler deadline counts its own run time, not the wait for the core’s request; the bytes bound stops a large answer', async () => {
    const bounded = tempProject({ sandbox: { deadlineMs: 300 }, network: { maxBytesPerCall: 1024 } });
    const slow = await Catalog.load({
      schemas: join(SCHEMAS, 'fetcher.mjs'),
      project: bounded.dir,
      keys: { FETCH_KEY },
      upstreams: { 'https://api.fetcher.test': upstream.origin },
      sandbox: { size: 1 },
    });
    try {
      // The upstream takes 600 ms, twice the deadline: the deadline pauses while the core waits.
      expect(await slow.call('fetcher_get', { q: 'slow' })).toMatchObject({
        ok: true,
        content: { value: { status: 200 } },
      });
      // Answers of about 150 bytes each: the flood's requests pass the 1024-byte bound after 7.
      const flood = await slow.call('fetcher_flood', {});
      const outcomes = (flood as { content: { value: unknown[] } }).content.value;
      expect(outcomes.find((outcome) => typeof outcome === 'string')).toMatch(
        /^TOO_MANY_BYTES: the call received more than 1024 bytes/,
      );
    } finally {
      await slow.close();
      bounded.remove();
    }
  });
});
