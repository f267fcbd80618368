// An eighth reviewer's attacks on promise 7 through the bridge: schemas sharing one sandbox
// process, one of them hostile. It floods the bridge with tens of thousands of fetches at once,
// leaves a chain of fetches running after its call answered, and writes to its globals and to
// every shared class it is given. The calm schema beside it must get every answer, see none of
// it, and the flood must stay within its call's bound on the wire.
//
// Real parts: the real sandbox (one process), a loopback upstream behind both schemas' origins.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const MAX_REQUESTS = 20;
const FLOOD = 40_000;

const ROUTE = (name: string) =>
  `${name}: { method: 'GET', path: '/${name}', description: 'A route.', parameters: [], tests: [{ _description: 'a' }] }`;

const HOSTILE = `export const main = {
    namespace: 'hostile', name: 'Hostile', description: 'Floods, leaves work, writes what it can.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.hostile.test',
    routes: { ${[ROUTE('flood'), ROUTE('leave'), ROUTE('spin'), ROUTE('write')].join(', ')} }
};
export const handlers = () => ({
    flood: { executeRequest: async () => {
        const all = [];
        for (let i = 0; i < ${FLOOD}; i += 1) all.push(fetch('https://api.hostile.test/flood').then(() => 'sent', (error) => error.message.split(':')[0]));
        const outcomes = await Promise.all(all);
        return { response: outcomes.filter((outcome) => outcome === 'sent').length };
    } },
    leave: { executeRequest: async () => {
        // Answers at once; the chain asks again each time an answer comes back, for ever.
        const again = () => fetch('https://api.hostile.test/left').then(again, again);
        again();
        return { response: 'left' };
    } },
    spin: { executeRequest: async () => {
        // One request on the wire (its answer is slow), then a loop that never ends.
        fetch('https://api.hostile.test/slow').catch(() => undefined);
        for (let turn = 0; turn < 10; turn += 1) await null;
        let turns = 0;
        while (turns >= 0) turns += 1;
        return { response: 'never' };
    } },
    write: { executeRequest: async () => {
        const tries = {
            'a global of its own': () => { leaked = 'hostile was here'; },
            'Headers.prototype.get': () => { Headers.prototype.get = () => 'forged'; },
            'URL.prototype.toString': () => { URL.prototype.toString = () => 'https://forged.test/'; },
            'Buffer.prototype.toString': () => { Buffer.prototype.toString = () => 'forged'; },
            'Buffer.poolSize': () => { Buffer.poolSize = 8192; },
            'JSON.parse': () => { JSON.parse = () => ({ forged: true }); },
            'Object.prototype.forged': () => { Object.prototype.forged = true; },
            'TextDecoder.prototype.decode': () => { TextDecoder.prototype.decode = () => 'forged'; },
            'AbortSignal.timeout': () => { AbortSignal.timeout = () => undefined; },
            'fetch': () => { fetch.forged = true; },
        };
        const refused = [];
        for (const [name, attempt] of Object.entries(tries)) { try { attempt(); } catch { refused.push(name); } }
        return { response: refused };
    } }
});
`;

const CALM = `export const main = {
    namespace: 'calm', name: 'Calm', description: 'Reads its own upstream.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.calm.test',
    routes: { ${ROUTE('read')} }
};
export const handlers = () => ({
    read: { executeRequest: async () => {
        const answer = await fetch('https://api.calm.test/read');
        const text = new TextDecoder().decode(new Uint8Array(await answer.arrayBuffer()));
        return { response: {
            body: JSON.parse(text),
            type: answer.headers.get('content-type'),
            url: new URL(answer.url).toString(),
            buffer: Buffer.from('calm').toString(),
            leaked: typeof leaked,
            forged: ({}).forged === undefined ? 'none' : 'forged'
        } };
    } }
});
`;

const CALM_ANSWER = {
  body: { calm: true },
  type: 'application/json',
  url: 'https://api.calm.test/read',
  buffer: 'calm',
  leaked: 'undefined',
  forged: 'none',
};

let upstream: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;
/** Told when the hostile loop's slow request reaches the upstream. */
let slowArrived: () => void = () => undefined;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"calm":true}');
    if (req.url === '/slow') {
      slowArrived();
      setTimeout(answer, 3_000);
    } else answer();
  });
  loaded = await loadProjectCatalog(
    {
      config: { network: { maxRequestsPerCall: MAX_REQUESTS } },
      schemas: { 'hostile.mjs': HOSTILE, 'calm.mjs': CALM },
    },
    {
      upstreams: { 'https://api.hostile.test': upstream.origin, 'https://api.calm.test': upstream.origin },
      sandbox: { size: 1 },
    },
  );
  catalog = loaded.catalog;
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
}, 30_000);
afterAll(async () => {
  await loaded?.close();
  await upstream?.close();
});

const sentTo = (path: string) => upstream.records.filter((entry) => entry.url === path).length;

describe('a hostile schema in the process of a calm one', () => {
  it(`${FLOOD} fetches at once: at most ${MAX_REQUESTS} reach the wire, the flood fails or ends alone, the calm schema's calls are answered meanwhile`, async () => {
    const flood = catalog.call('hostile_flood', {});
    const calm = await Promise.all(Array.from({ length: 5 }, () => catalog.call('calm_read', {})));
    for (const answer of calm) expect(answer).toMatchObject({ ok: true, content: { value: CALM_ANSWER } });
    const flooded = await flood;
    if (flooded.ok) expect(flooded).toMatchObject({ content: { value: MAX_REQUESTS } });
    else expect(flooded).toMatchObject({ error: { code: expect.stringMatching(/^SEC10[56]$/) } });
    expect(sentTo('/flood')).toBeLessThanOrEqual(MAX_REQUESTS);
    expect(await catalog.call('calm_read', {})).toMatchObject({ ok: true, content: { value: CALM_ANSWER } });
  });

  it("a loop run while its request is in flight counts against its deadline once the calm schema's call waits: the loop fails alone (SEC105, or SEC106 beside the flood's memory), the calm call runs", async () => {
    const slowSent = new Promise<void>((resolve) => (slowArrived = resolve));
    const spin = catalog.call('hostile_spin', {});
    // Once the loop runs with its request on the wire (a process busy after the flood may take a while to start it).
    await slowSent;
    const calm = await catalog.call('calm_read', {});
    expect(calm).toMatchObject({ ok: true, content: { value: CALM_ANSWER } });
    // SEC106 where the process still holds what the flood above left (the same hostile schema's): a deadline missed in a
    // process grown past its memory line is read as memory (replies.ts missedDeadline). Either way the loop fails alone.
    expect(await spin).toMatchObject({ ok: false, error: { code: expect.stringMatching(/^SEC10[56]$/) } });
  });

  it('a chain of fetches left running after its call answered: refused, sent to no one, never in the calm call’s record', async () => {
    const left = await catalog.call('hostile_leave', {});
    const calm = await Promise.all(Array.from({ length: 5 }, () => catalog.call('calm_read', {})));
    for (const answer of calm) {
      expect(answer).toMatchObject({ ok: true, content: { value: CALM_ANSWER } });
      expect((answer as { requests: Array<{ origin: string }> }).requests).toEqual([
        expect.objectContaining({ origin: 'https://api.calm.test', status: 200 }),
      ]);
    }
    // The call that left it answered, or failed alone for the work it left running.
    if (!left.ok) expect(left).toMatchObject({ error: { code: 'SEC105' } });
    expect(sentTo('/left')).toBeLessThanOrEqual(1);
  });

  it('writes to its globals and to every shared class: the shared ones are refused, and the calm schema sees none of them', async () => {
    const written = await catalog.call('hostile_write', {});
    expect(written).toMatchObject({
      ok: true,
      content: {
        value: [
          'a global of its own',
          'Headers.prototype.get',
          'URL.prototype.toString',
          'Buffer.prototype.toString',
          'Buffer.poolSize',
          'JSON.parse',
          'Object.prototype.forged',
          'TextDecoder.prototype.decode',
          'AbortSignal.timeout',
          'fetch',
        ],
      },
    });
    expect(await catalog.call('calm_read', {})).toMatchObject({ ok: true, content: { value: CALM_ANSWER } });
  });
});
