// Seam 1 of issue 16: every finished Catalog.call makes one record for its listeners, with the
// schema file's hash, the outcome, the arguments (redacted) and every outbound request: the
// core's own (also in CallResult.requests) and those an executeRequest handler made. A key the
// caller echoes in its arguments, or the upstream in its answer, never reaches a record.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/call/record.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { keyLeaks, KEY, observedProject, REDACTED, SCHEMA_FILE, type ObservedProject } from './fixture.js';
import { callRecordsDelivered } from '../support/wait.js';

let project: ObservedProject;
let catalog: Catalog;
const records: CallRecord[] = [];

beforeAll(async () => {
  project = await observedProject();
  catalog = await Catalog.load({ schemas: project.schemas, project: project.dir, env: {} });
  catalog.onCall((record) => void records.push(record));
});

afterAll(async () => {
  await catalog?.close();
  await project?.close();
});

/** The record of one call made now. */
async function recorded(tool: string, args: unknown): Promise<CallRecord> {
  const before = records.length;
  await catalog.call(tool, args);
  await callRecordsDelivered();
  expect(records.length).toBe(before + 1);
  return records[records.length - 1] as CallRecord;
}

describe('call records', () => {
  it('names the tool, the schema version served, the outcome, the arguments and the core request', async () => {
    const started = Date.now();
    const result = await catalog.call('audited_lookup', { mode: 'echo', q: 'eth' });
    await callRecordsDelivered();
    const record = records[records.length - 1] as CallRecord;
    const bytes = readFileSync(join(project.schemas, SCHEMA_FILE));
    expect(record).toMatchObject({
      tool: 'audited_lookup',
      reference: `audited/${SCHEMA_FILE}::lookup`,
      schemaHash: createHash('sha256').update(bytes).digest('hex'),
      outcome: 'ok',
      arguments: { mode: 'echo', q: 'eth' },
      cache: 'none',
    });
    expect(Date.parse(record.time)).toBeGreaterThanOrEqual(started - 1000);
    expect(record.durationMs).toBeGreaterThan(0);
    // The schema's origin, not the address of the override it went to.
    expect(record.requests).toEqual([
      {
        origin: 'https://api.audited.test',
        method: 'GET',
        status: 200,
        bytes: expect.any(Number),
        ms: expect.any(Number),
      },
    ]);
    expect(record.requests[0]?.bytes).toBeGreaterThan(0);
    // The core's own request is on the result too (it was only set for executeRequest before).
    expect(result.ok && 'requests' in result ? result.requests : undefined).toEqual(record.requests);
  });

  it('records a failed call with its kind and the status the upstream gave', async () => {
    const record = await recorded('audited_lookup', { mode: 'fail' });
    expect(record.outcome).toBe('upstream-status');
    expect(record.requests).toMatchObject([{ method: 'GET', status: 500 }]);
  });

  it('records an unknown tool and invalid arguments, which send nothing', async () => {
    expect(await recorded('audited_nothing', {})).toMatchObject({
      tool: 'audited_nothing',
      reference: '',
      schemaHash: '',
      outcome: 'unknown-tool',
      requests: [],
    });
    expect(await recorded('audited_lookup', { mode: 'sideways' })).toMatchObject({
      outcome: 'arguments',
      requests: [],
    });
  });

  it('records every request an executeRequest handler made through the core', async () => {
    const record = await recorded('audited_twice', {});
    expect(record.outcome).toBe('ok');
    expect(record.requests.map((request) => request.status)).toEqual([200, 500]);
  });

  it('holds no key, echoed in the arguments or by the upstream, and a long value only as its size', async () => {
    const echoed = await recorded('audited_lookup', { mode: 'echo', q: KEY });
    expect(echoed.arguments.q).toBe(REDACTED);
    const failed = await recorded('audited_lookup', { mode: 'fail', q: `${'x'.repeat(2000)}${KEY}` });
    expect(failed.arguments.q).toMatch(/^\[\d+ characters, not recorded\]$/);
    const unknown = await recorded(`audited_${KEY}`, { q: KEY });
    expect(unknown.tool).toContain(REDACTED);
    expect(project.upstream.records.some((entry) => entry.headers['x-api-key'] === KEY)).toBe(true);
    expect(keyLeaks(JSON.stringify(records))).toEqual([]);
  });

  it('survives a listener that throws or rejects, and stops after unsubscribing', async () => {
    const heard: string[] = [];
    const stops = [
      catalog.onCall(() => {
        throw new Error('listener bug');
      }),
      catalog.onCall(() => Promise.reject(new Error('async listener bug')) as unknown as void),
      catalog.onCall((record) => void heard.push(record.tool)),
    ];
    const result = await catalog.call('audited_lookup', { mode: 'echo' });
    expect(result.ok).toBe(true);
    await callRecordsDelivered();
    expect(heard).toEqual(['audited_lookup']);
    for (const stop of stops) stop();
    await catalog.call('audited_lookup', { mode: 'echo' });
    await callRecordsDelivered();
    expect(heard).toEqual(['audited_lookup']);
  });

  it('hands a record over after its caller has the answer, to the listeners there were when the call ended; close() delivers what waits', async () => {
    const own = await Catalog.load({ schemas: project.schemas, project: project.dir, env: {} });
    const heard: string[] = [];
    const stop = own.onCall((record) => void heard.push(record.outcome));
    await own.call('audited_lookup', { mode: 'echo' });
    // Not yet: the record waits for its batch, off the call's path.
    expect(heard).toEqual([]);
    stop();
    await own.close();
    expect(heard).toEqual(['ok']);
  });
});
