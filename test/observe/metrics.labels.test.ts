// `/metrics` against hostile label values: every label a call's outside input can set is bounded
// in number and in length. An executeRequest handler (schema code, untrusted) asks for origins
// whose hosts are 60,000 characters long, each one new: refused (outside its reach), recorded,
// and counted by origin. Real parts: a real catalog with the sandbox, its call records fed to a
// real ServerMetrics as the HTTP server feeds them (src/edge/http.ts), and a scrape. Client ids
// (an issuer's text) that are a megabyte long or hold a line break, tool names no catalog knows,
// and status codes outside 200-599 are counted without growing a label or shifting another.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LABEL_CHARS, MAX_ORIGINS, MAX_TOOLS, ServerMetrics } from '../../src/observe/metrics.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject, type TempProject } from '../kit/project.js';
import { callRecordsDelivered } from '../support/wait.js';

/** Each call asks for 20 new origins (network.maxRequestsPerCall's default), each host 60,000 characters. */
const SCHEMA = `export const main = {
  namespace: 'prober', name: 'Prober', description: 'Asks for origins without end.', version: '2.0.0',
  root: 'https://api.prober.test',
  routes: {
    probe: { method: 'GET', path: '/probe', description: 'Probes.',
      parameters: [{ position: { key: 'round', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: [] } }],
      tests: [{ _description: 'one', round: 1 }] }
  }
};

export const handlers = () => ({
  probe: {
    executeRequest: async ({ struct, payload }) => {
      const round = payload.userParams.round;
      const padding = 'a'.repeat(60000);
      for (let i = 0; i < 20; i += 1)
        await fetch(['https:', '', round + '-' + i + '-' + padding + '.example', ''].join('/')).catch(() => null);
      struct.data = 'probed';
      return { struct };
    }
  }
});
`;

/** Label values longer than the bound in a scrape, and the length of the longest. */
function longLabels(text: string): number[] {
  return [...text.matchAll(/="((?:[^"\\]|\\.)*)"/g)]
    .map((match) => (match[1] as string).length)
    .filter((length) => length > MAX_LABEL_CHARS);
}

describe('origin labels an executeRequest handler sets', () => {
  let project: TempProject;
  let catalog: Catalog;
  beforeAll(async () => {
    project = tempProject();
    mkdirSync(join(project.dir, 'schemas'));
    writeFileSync(join(project.dir, 'schemas', 'prober.mjs'), SCHEMA);
    catalog = await Catalog.load({ schemas: join(project.dir, 'schemas'), project: project.dir, env: {} });
  }, 30_000);
  afterAll(async () => {
    await catalog?.close();
    project?.remove();
  });

  it(`stay within ${MAX_LABEL_CHARS} characters each, however many and however long the origins asked for`, async () => {
    const metrics = new ServerMetrics();
    const stop = catalog.onCall((record) => metrics.record(record));
    // More origins than MAX_ORIGINS, every one new.
    const rounds = Math.ceil(MAX_ORIGINS / 20) + 1;
    for (let round = 0; round < rounds; round += 1) {
      const result = await catalog.call('prober_probe', { round });
      expect(result.ok, JSON.stringify(result).slice(0, 300)).toBe(true);
    }
    await callRecordsDelivered();
    stop();
    const { text } = await metrics.scrape();
    expect(text).toContain('flowguard_upstream_responses_total{origin="(other)",class="failed"}');
    expect(longLabels(text)).toEqual([]);
    expect(text.length).toBeLessThan(64 * 1024);
  }, 60_000);
});

describe('labels of the caller, the tool and the status', () => {
  const call = (fields: { tool?: string; outcome?: string; client?: string; status?: number }) => ({
    tool: fields.tool ?? 'widgets_getWidget',
    outcome: fields.outcome ?? 'ok',
    durationMs: 1,
    requests: fields.status === undefined ? [] : [{ origin: 'https://api.widgets.test', status: fields.status }],
    cache: 'none' as const,
    caller: { identity: 'shop', client: fields.client ?? 'alice' },
  });

  it('counts a client id of a megabyte, or holding a line break, under (other), never shifting the outcome', async () => {
    const metrics = new ServerMetrics();
    metrics.record(call({ client: 'x'.repeat(1_000_000) }));
    metrics.record(call({ client: 'mallory\nok', outcome: 'upstream-status' }));
    const { text } = await metrics.scrape();
    expect(longLabels(text)).toEqual([]);
    expect(text).toContain('flowguard_caller_calls_total{identity="shop",client="(other)",outcome="ok"} 1');
    expect(text).toContain(
      'flowguard_caller_calls_total{identity="shop",client="(other)",outcome="upstream-status"} 1',
    );
  });

  // A seventh review: the bound's edge, and client ids (an issuer may register any) spelled with
  // the exposition format's own characters. Each sample line must read back, by the format's
  // grammar (`\\`, `\"` and `\n` escaped in a quoted value), as the three labels it was counted under.
  it('keeps a client id of exactly the bound and counts one past it as (other); quotes, backslashes and CRs never shift a label', async () => {
    const metrics = new ServerMetrics();
    const clients = [
      'c'.repeat(MAX_LABEL_CHARS),
      'd'.repeat(MAX_LABEL_CHARS + 1),
      'q"x',
      'b\\x',
      'r\rx',
      '",outcome="ok',
    ];
    for (const client of clients) metrics.record(call({ client, outcome: 'upstream-status' }));
    const { text } = await metrics.scrape();
    const SAMPLE =
      /^flowguard_caller_calls_total\{identity="((?:\\.|[^\\"\n])*)",client="((?:\\.|[^\\"\n])*)",outcome="((?:\\.|[^\\"\n])*)"\} (\d+)$/;
    const unescape = (value: string) => value.replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char));
    const read = text
      .split('\n')
      .filter((line) => line.startsWith('flowguard_caller_calls_total{'))
      .map((line) => {
        const match = SAMPLE.exec(line);
        expect(match, line).not.toBeNull();
        const [, identity, client, outcome, count] = match as RegExpExecArray;
        return [unescape(identity as string), unescape(client as string), unescape(outcome as string), Number(count)];
      });
    expect(read.sort()).toEqual(
      [
        ['shop', 'c'.repeat(MAX_LABEL_CHARS), 'upstream-status', 1],
        ['shop', '(other)', 'upstream-status', 1],
        ['shop', 'q"x', 'upstream-status', 1],
        ['shop', 'b\\x', 'upstream-status', 1],
        ['shop', 'r\rx', 'upstream-status', 1],
        ['shop', '",outcome="ok', 'upstream-status', 1],
      ].sort(),
    );
  });

  it('counts made-up tool names under (unknown) and statuses outside 200-599 as failed', async () => {
    const metrics = new ServerMetrics();
    for (let i = 0; i < 1_000; i += 1)
      metrics.record(call({ tool: `made-up-${i}-${'t'.repeat(1000)}`, outcome: 'unknown-tool' }));
    for (const status of [0, 99, 600, 999, 1e9, -1]) metrics.record(call({ status }));
    const { text } = await metrics.scrape();
    expect(text.match(/^flowguard_tool_calls_total\{/gm)).toHaveLength(2);
    expect(text).toContain('flowguard_tool_calls_total{tool="(unknown)",outcome="unknown-tool"} 1000');
    expect(text).toContain('flowguard_upstream_responses_total{origin="https://api.widgets.test",class="failed"} 6');
    expect(longLabels(text)).toEqual([]);
  });

  // An eleventh review: a tool's name is its schema's text, and under `serve --watch` each reload
  // may bring new ones (a file that renames its tools on every save); each name called is a series
  // kept for the life of the process. 50,000 names, as so many reloads would bring them: the
  // series stay bounded, the first names keep their own.
  it(`counts past ${MAX_TOOLS} tool names, as reloads bring them, under (other)`, async () => {
    const metrics = new ServerMetrics();
    for (let i = 0; i < 50_000; i += 1) metrics.record(call({ tool: `renamed_tool${i}` }));
    for (let i = 0; i < 50_000; i += 1) metrics.outputMismatch(`renamed_tool${i}`);
    const { text } = await metrics.scrape();
    expect(text.match(/^flowguard_tool_calls_total\{/gm)).toHaveLength(MAX_TOOLS + 1);
    expect(text.match(/^flowguard_output_mismatches_total\{/gm)).toHaveLength(MAX_TOOLS + 1);
    expect(text).toContain('flowguard_tool_calls_total{tool="renamed_tool0",outcome="ok"} 1');
    expect(text).toContain(`flowguard_tool_calls_total{tool="(other)",outcome="ok"} ${50_000 - MAX_TOOLS}`);
  });
});
