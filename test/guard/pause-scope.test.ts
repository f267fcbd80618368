// Issue 23, points 8, 11a and 11b, attacked through Catalog.load and call against a real loopback
// upstream (an `upstreams` override stands for every schema's origin):
// - one namespace cannot pause another: a 429 with Retry-After 60 fetched by an attacker's schema
//   at the victim's origin (its own root pointing there, or an executeRequest) pauses only the
//   attacker; the victim's calls, with its key or without one, still go out;
// - a 429 storm: once a request comes back 429, requests waiting for one of the origin's slots
//   answer rate-limited at once and nothing more reaches the upstream;
// - Retry-After is read only as whole seconds or an RFC 9110 HTTP-date: `-1`, `1.5`, `+5` and the
//   like get the 1 s pause instead of none.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import type { CallResult, ToolError } from '../../src/call/outcome.js';
import { retryAfterUntil } from '../../src/guard/retry-after.js';
import { UpstreamGuard } from '../../src/guard/upstream-guard.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';

const VICTIM_ORIGIN = 'https://api.victim.test';
const VICTIM_KEY = 'victim-key-0123456789abcdef';

const schema = (namespace: string, root: string, extra = '') => `export const main = {
  namespace: '${namespace}', name: '${namespace}', description: 'A schema.', version: '2.0.0',
  root: '${root}',${extra}
  routes: {
    get: { method: 'GET', path: '/things/{{mode}}', description: 'One thing.', parameters: [{ position: { key: 'mode', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', mode: 'ok' }] }
  }
};
`;
/** The victim: its key goes in a header. */
const VICTIM = `export const main = {
  namespace: 'victim', name: 'Victim', description: 'The victim.', version: '2.0.0',
  root: '${VICTIM_ORIGIN}', requiredServerParams: ['VICTIM_KEY'], headers: { 'x-api-key': '{{VICTIM_KEY}}' },
  routes: {
    get: { method: 'GET', path: '/things/{{mode}}', description: 'One thing.', parameters: [{ position: { key: 'mode', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', mode: 'ok' }] }
  }
};
`;
/** The attacker fetches a 429 at the victim's origin through the core. */
const BRIDGING_ATTACKER = `export const main = {
  namespace: 'bridger', name: 'Bridger', description: 'Fetches elsewhere.', version: '2.0.0',
  root: 'https://api.bridger.test',
  routes: {
    poke: { method: 'GET', path: '/x', description: 'Pokes the victim.', parameters: [], tests: [{ _description: 'a' }] }
  }
};
export const handlers = () => ({
  poke: {
    executeRequest: async ({ struct }) => {
      const answer = await fetch('${VICTIM_ORIGIN}/things/busy');
      struct.data = { status: answer.status };
      return { struct };
    }
  }
});
`;

let upstream: Upstream;
/** Requests of the storm held open by the upstream, to answer when the test says. */
const held: ServerResponse[] = [];
let retryAfter = '60';

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    const mode = req.url?.split('/').pop();
    if (mode === 'busy') {
      res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': retryAfter }).end('slow down');
      return;
    }
    if (mode === 'down') {
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': retryAfter }).end('down');
      return;
    }
    if (mode === 'storm') {
      held.push(res);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});

const open: Array<{ catalog: Catalog; remove: () => void }> = [];
afterEach(async () => {
  for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  retryAfter = '60';
  for (const { catalog, remove } of open.splice(0)) {
    await catalog.close();
    remove();
  }
});
afterAll(() => upstream.close());

async function load(
  files: Record<string, string>,
  config: unknown = {},
  keys: Record<string, string> = { VICTIM_KEY },
): Promise<Catalog> {
  const project = tempProject({ config });
  mkdirSync(join(project.dir, 'schemas'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project.dir, 'schemas', name), text);
  const catalog = await Catalog.load({
    schemas: join(project.dir, 'schemas'),
    project: project.dir,
    env: {},
    keys,
    upstreams: { '*': upstream.origin },
    sandbox: { size: 1 },
  });
  open.push({ catalog, remove: project.remove });
  return catalog;
}

function refusal(result: CallResult): ToolError {
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

describe('one namespace cannot pause another (point 8)', () => {
  it("an attacker whose root is the victim's origin gets a 429 with Retry-After 60: only the attacker is paused", async () => {
    const catalog = await load({ 'victim.mjs': VICTIM, 'attacker.mjs': schema('attacker', VICTIM_ORIGIN) });
    expect(refusal(await catalog.call('attacker_get', { mode: 'busy' }))).toMatchObject({
      kind: 'upstream-status',
      status: 429,
    });
    const before = upstream.hits();
    const victim = await catalog.call('victim_get', { mode: 'ok' });
    expect(victim.ok).toBe(true);
    expect(upstream.hits()).toBe(before + 1);
    expect(upstream.records.at(-1)?.headers['x-api-key']).toBe(VICTIM_KEY);
    // The attacker's own calls are paused: the pause is real, only its scope changed.
    expect(refusal(await catalog.call('attacker_get', { mode: 'ok' })).kind).toBe('rate-limited');
    expect(upstream.hits()).toBe(before + 1);
  });

  it("an attacker's executeRequest fetches the 429 at the victim's origin: the victim's calls still go out", async () => {
    const catalog = await load({ 'victim.mjs': VICTIM, 'bridger.mjs': BRIDGING_ATTACKER });
    const poked = await catalog.call('bridger_poke', {});
    expect(poked).toMatchObject({ ok: true });
    expect(upstream.records.at(-1)?.url).toBe('/things/busy');
    const before = upstream.hits();
    expect((await catalog.call('victim_get', { mode: 'ok' })).ok).toBe(true);
    expect(upstream.hits()).toBe(before + 1);
  });

  it("an attacker granted the victim's key value under a key of its own fetches a 429 at the victim's origin without it: the victim's calls still go out", async () => {
    // The operator gave two schemas one credential (two names, one value; or one name accepted
    // for both files). The attacker's key is bound to its own root, so its request to the
    // victim's origin carries no key: the 429 is not the credential's, and pauses only the attacker.
    const attacker = BRIDGING_ATTACKER.replace(
      "root: 'https://api.bridger.test',",
      "root: 'https://api.bridger.test', requiredServerParams: ['BRIDGER_KEY'], headers: { 'x-api-key': '{{BRIDGER_KEY}}' },",
    );
    const catalog = await load(
      { 'victim.mjs': VICTIM, 'bridger.mjs': attacker },
      {},
      {
        VICTIM_KEY,
        BRIDGER_KEY: VICTIM_KEY,
      },
    );
    expect(await catalog.call('bridger_poke', {})).toMatchObject({ ok: true });
    expect(upstream.records.at(-1)).toMatchObject({ url: '/things/busy' });
    expect(upstream.records.at(-1)?.headers['x-api-key']).toBeUndefined();
    const before = upstream.hits();
    const victim = await catalog.call('victim_get', { mode: 'ok' });
    expect(victim, JSON.stringify(victim)).toMatchObject({ ok: true });
    expect(upstream.hits()).toBe(before + 1);
  });

  it('two namespaces that send one key value to one origin share its pause: the API limits them together', async () => {
    const twin = schema(
      'twin',
      VICTIM_ORIGIN,
      " requiredServerParams: ['TWIN_KEY'], headers: { 'x-api-key': '{{TWIN_KEY}}' },",
    );
    const catalog = await load({ 'victim.mjs': VICTIM, 'twin.mjs': twin }, {}, { VICTIM_KEY, TWIN_KEY: VICTIM_KEY });
    expect(refusal(await catalog.call('twin_get', { mode: 'busy' }))).toMatchObject({ status: 429 });
    expect(upstream.records.at(-1)?.headers['x-api-key']).toBe(VICTIM_KEY);
    const before = upstream.hits();
    expect(refusal(await catalog.call('victim_get', { mode: 'ok' })).kind).toBe('rate-limited');
    expect(upstream.hits()).toBe(before);
  });

  it('two namespaces without keys at one origin: the one that got the 429 is paused, the other is not', async () => {
    const catalog = await load({
      'quiet.mjs': schema('quiet', VICTIM_ORIGIN),
      'attacker.mjs': schema('attacker', VICTIM_ORIGIN),
    });
    refusal(await catalog.call('attacker_get', { mode: 'busy' }));
    expect((await catalog.call('quiet_get', { mode: 'ok' })).ok).toBe(true);
    expect(refusal(await catalog.call('attacker_get', { mode: 'ok' })).kind).toBe('rate-limited');
  });
});

describe('a 429 storm stops at the 429 (point 11a)', () => {
  it('100 concurrent calls, 8 slots: once one answers 429, the 92 waiting answer rate-limited at once and nothing more is sent', async () => {
    const catalog = await load({ 'storm.mjs': schema('storm', VICTIM_ORIGIN) });
    const before = upstream.hits();
    let settled = 0;
    const calls = Array.from({ length: 100 }, () =>
      catalog.call('storm_get', { mode: 'storm' }).then((result) => {
        settled += 1;
        return result;
      }),
    );
    // The default concurrency (8 per origin) is on the wire; the other 92 wait for a slot.
    expect(await waitFor(() => held.length === 8)).toBe(true);
    (held.shift() as ServerResponse).writeHead(429, { 'retry-after': '60' }).end('slow down');
    // The 429's call and every waiting one answer while the other 7 are still on the wire.
    expect(await waitFor(() => settled === 93)).toBe(true);
    expect(upstream.hits() - before).toBe(8);
    expect(held.length).toBe(7);
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const results = await Promise.all(calls);
    const kinds = results.map((result) => (result.ok ? 'ok' : result.error.kind));
    expect(kinds.filter((kind) => kind === 'rate-limited')).toHaveLength(92);
    expect(kinds.filter((kind) => kind === 'ok')).toHaveLength(7);
    expect(upstream.hits() - before).toBe(8);
  });
});

describe('a 429 storm at an origin several namespaces share', () => {
  it('stops the waiting calls of every namespace that sends the 429ed key there, and of no other', async () => {
    const twin = schema(
      'twin',
      VICTIM_ORIGIN,
      " requiredServerParams: ['TWIN_KEY'], headers: { 'x-api-key': '{{TWIN_KEY}}' },",
    );
    const catalog = await load(
      { 'victim.mjs': VICTIM, 'twin.mjs': twin, 'quiet.mjs': schema('quiet', VICTIM_ORIGIN) },
      {},
      { VICTIM_KEY, TWIN_KEY: VICTIM_KEY },
    );
    const before = upstream.records.length;
    const keyed = (record: { headers: Record<string, unknown> }) => record.headers['x-api-key'] === VICTIM_KEY;
    const settled: string[] = [];
    // 40 calls of each, interleaved: the origin's 8 slots go to all three.
    const calls = Array.from({ length: 120 }, (_, index) => {
      const namespace = ['victim', 'twin', 'quiet'][index % 3] as string;
      return catalog.call(`${namespace}_get`, { mode: 'storm' }).then((result) => {
        settled.push(namespace);
        return { namespace, kind: result.ok ? 'ok' : result.error.kind };
      });
    });
    expect(await waitFor(() => held.length === 8)).toBe(true);
    const onWire = held.map((res) => keyed(res.req));
    const at = onWire.indexOf(true);
    expect(at).toBeGreaterThanOrEqual(0);
    (held.splice(at, 1)[0] as ServerResponse).writeHead(429, { 'retry-after': '60' }).end('slow down');
    // The 429's call and every keyed call waiting for a slot answer at once; the keyless ones wait on.
    const keyedWaiting = 80 - onWire.filter(Boolean).length;
    expect(await waitFor(() => settled.length === 1 + keyedWaiting)).toBe(true);
    expect(settled.filter((namespace) => namespace === 'quiet')).toEqual([]);
    // Answered one by one, the requests on the wire free their slots for the keyless calls only.
    for (let round = 0; round < 200 && settled.length < 120; round += 1) {
      await waitFor(() => held.length > 0 || settled.length === 120, 5000);
      for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    }
    const results = await Promise.all(calls);
    expect(results.filter((result) => result.namespace === 'quiet').map((result) => result.kind)).toEqual(
      Array.from({ length: 40 }, () => 'ok'),
    );
    // Nothing more went out with the key after the 429: only what was on the wire.
    const sent = upstream.records.slice(before);
    expect(sent.filter(keyed)).toHaveLength(onWire.filter(Boolean).length);
    expect(results.filter((result) => result.kind === 'rate-limited')).toHaveLength(keyedWaiting);
  });
});

describe('Retry-After is read only in the forms RFC 9110 gives (point 11b)', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('whole seconds and the three HTTP-date forms are read', () => {
    expect(retryAfterUntil('120', now)).toBe(now + 120_000);
    expect(retryAfterUntil(' 7 ', now)).toBe(now + 7_000);
    expect(retryAfterUntil('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(now + 30_000);
    expect(retryAfterUntil('Thursday, 01-Jan-26 00:00:30 GMT', now)).toBe(now + 30_000);
    expect(retryAfterUntil('Thu Jan  1 00:00:30 2026', now)).toBe(now + 30_000);
    // A two-digit year more than 50 years ahead is in the past century.
    expect(retryAfterUntil('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });

  it.each([
    '-1',
    '1.5',
    '+5',
    '5s',
    '0x10',
    '1e3',
    'soon',
    '2026-01-01',
    'Thu, 01 Jan 2026 00:00:30 UTC',
    'Thu, 31 Feb 2026 00:00:30 GMT',
    'Thu, 01 Jan 2026 24:00:00 GMT',
    '',
  ])('%j is not read', (text) => {
    expect(retryAfterUntil(text, now)).toBeNull();
  });

  it.each(['-1', '1.5', '+5'])(
    'a 429 with Retry-After %j pauses for the documented 1 s instead of not at all',
    async (text) => {
      retryAfter = text;
      const catalog = await load({ 'odd.mjs': schema('odd', VICTIM_ORIGIN) });
      refusal(await catalog.call('odd_get', { mode: 'busy' }));
      const before = upstream.hits();
      const paused = refusal(await catalog.call('odd_get', { mode: 'ok' }));
      expect(paused).toMatchObject({ kind: 'rate-limited', retryAfter: '1' });
      expect(upstream.hits()).toBe(before);
    },
  );

  // Hostile values an upstream may send: each pause lasts at most maxPauseSeconds, a time past or
  // now pauses nothing, anything unreadable pauses the documented 1 s; none throws.
  it.each([
    { what: 'of 400 nines', text: '9'.repeat(400), seconds: 300 },
    { what: '99999999999999999999', text: '99999999999999999999', seconds: 300 },
    { what: '1e308', text: '1e308', seconds: 1 },
    { what: 'Infinity', text: 'Infinity', seconds: 1 },
    { what: 'NaN', text: 'NaN', seconds: 1 },
    { what: '-99999999', text: '-99999999', seconds: 1 },
    { what: '0', text: '0', seconds: 0 },
    { what: '5 after 34 zeros', text: `${'0'.repeat(34)}5`, seconds: 5 },
    { what: 'in the year 9999', text: 'Fri, 31 Dec 9999 23:59:59 GMT', seconds: 300 },
    { what: 'in the year 1', text: 'Mon, 01 Jan 0001 00:00:00 GMT', seconds: 0 },
    { what: 'at the epoch', text: 'Thu, 01 Jan 1970 00:00:00 GMT', seconds: 0 },
    { what: 'past the last date JavaScript knows', text: 'Sat Jan  1 00:00:00 275760', seconds: 1 },
    { what: 'of 16,000 spaces around an x', text: `${' '.repeat(8000)}x${' '.repeat(8000)}`, seconds: 1 },
    { what: 'of 5 after 16,000 spaces', text: '5'.padStart(16_000, ' '), seconds: 5 },
  ])('Retry-After $what pauses $seconds s', async ({ text, seconds }) => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const state = new MemoryState({ now: () => now });
    const guard = new UpstreamGuard({}, state, { now: () => now });
    const origin = 'https://api.odd.test';
    await guard.observe(`${origin} namespace:odd`, 429, text);
    const admitted = await guard.admit(origin, 'odd', undefined);
    if (seconds === 0) return void expect(admitted.ok).toBe(true);
    expect(admitted).toMatchObject({ ok: false, refusal: { retryAfterSeconds: seconds } });
    now += seconds * 1000;
    expect((await guard.admit(origin, 'odd', undefined)).ok).toBe(true);
  });

  it('a 503 with an unreadable Retry-After pauses 1 s too', async () => {
    retryAfter = '-1';
    const catalog = await load({ 'odd.mjs': schema('odd', VICTIM_ORIGIN) });
    refusal(await catalog.call('odd_get', { mode: 'down' }));
    expect(refusal(await catalog.call('odd_get', { mode: 'ok' }))).toMatchObject({
      kind: 'rate-limited',
      retryAfter: '1',
    });
  });
});
