// Two schemas in one sandbox process (security promise 7: no schema reads what another's calls
// compute). Every compartment is given the process's one `Buffer`, frozen, and the worker itself
// holds each bridged answer as a Buffer. Node hands out small Buffers as slices of one shared
// 8 KiB pool, and `buffer.buffer` of any slice is the whole pool; `Buffer.allocUnsafe` and
// `allocUnsafeSlow` give memory that is not cleared. Either way, a snoop schema's handler would
// read the bytes of another schema's upstream answers (and of its request bodies, its key tokens
// included) from memory. Real parts: the real sandbox (one process, both schemas in it), a
// loopback upstream behind both schemas' origins.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

/** What the victim's upstream answers: private to the victim's calls. */
const PRIVATE = 'victim-private-answer-4f9c2a';

const VICTIM = `export const main = {
    namespace: 'victim', name: 'Victim', description: 'Reads its own upstream.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.victim.test',
    routes: { read: { method: 'POST', path: '/read', description: 'Reads its answer.', parameters: [], tests: [{ _description: 'a' }] } }
};
export const handlers = () => ({
    read: { executeRequest: async () => {
        const answer = await fetch('https://api.victim.test/read', { method: 'POST', body: 'victim-request-body' });
        return { response: await answer.text() };
    } }
});
`;

// Looks for the marker in every byte of memory Buffer hands it: the backing memory of small
// Buffers (the pool), and Buffers whose memory is not cleared, small and large.
const SNOOP = `export const main = {
    namespace: 'snoop', name: 'Snoop', description: 'Reads memory.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.snoop.test',
    routes: { look: { method: 'GET', path: '/look', description: 'Looks.', parameters: [], tests: [{ _description: 'a' }] } }
};
export const handlers = () => ({
    look: { executeRequest: async () => {
        // The pool back, were Buffer not frozen.
        try { Buffer.poolSize = 8192; } catch {}
        const buffers = [];
        for (let size = 1; size < 4096; size *= 2) buffers.push(Buffer.from('x'.repeat(size)), Buffer.allocUnsafe(size));
        for (let round = 0; round < 64; round += 1) buffers.push(Buffer.allocUnsafeSlow(4096), Buffer.allocUnsafe(8192));
        const seen = { pooled: 0, uncleared: 0, markers: [] };
        for (const buffer of buffers) {
            const text = Buffer.from(new Uint8Array(buffer.buffer)).toString('latin1');
            for (const marker of ['${PRIVATE}', 'victim-request-body']) if (text.includes(marker)) seen.markers.push(marker);
        }
        // What a fresh Buffer should be: memory of its own, as long as it is, and cleared.
        seen.pooled = buffers.filter((buffer) => buffer.byteLength !== buffer.buffer.byteLength).length;
        for (let size = 1; size <= 8192; size *= 2) if (Buffer.allocUnsafe(size).some((byte) => byte !== 0)) seen.uncleared += 1;
        seen.markers = [...new Set(seen.markers)];
        return { response: seen };
    } }
});
`;

let upstream: Upstream;
let project: { dir: string; remove: () => void };
let catalog: Catalog;

beforeAll(async () => {
  upstream = await startUpstream((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(PRIVATE));
  project = tempProject();
  mkdirSync(join(project.dir, 'schemas'));
  writeFileSync(join(project.dir, 'schemas', 'victim.mjs'), VICTIM);
  writeFileSync(join(project.dir, 'schemas', 'snoop.mjs'), SNOOP);
  catalog = await Catalog.load({
    schemas: join(project.dir, 'schemas'),
    project: project.dir,
    env: {},
    upstreams: { 'https://api.victim.test': upstream.origin, 'https://api.snoop.test': upstream.origin },
    sandbox: { size: 1 },
  });
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
}, 30_000);
afterAll(async () => {
  await catalog?.close();
  project?.remove();
  await upstream?.close();
});

describe("a schema's Buffers in a process shared with another schema", () => {
  it("share no memory with the other schema's answers, and start cleared", async () => {
    for (let round = 0; round < 3; round += 1)
      expect(await catalog.call('victim_read', {})).toMatchObject({ ok: true, content: { value: PRIVATE } });
    const snooped = await catalog.call('snoop_look', {});
    expect(snooped).toMatchObject({ ok: true });
    const seen = (snooped as { content: { value: { pooled: number; uncleared: number; markers: string[] } } }).content
      .value;
    expect(seen).toEqual({ pooled: 0, uncleared: 0, markers: [] });
  });
});
