// `/metrics` split by caller (issue 28, point 2): calls of callers admitted by a token are counted
// by identity, OAuth client and outcome; client ids are the issuer's text and an issuer may
// register clients without end, so past MAX_CLIENTS distinct ids they share the label `(other)`.

import { describe, expect, it } from 'vitest';
import { MAX_CLIENTS, ServerMetrics } from '../../src/observe/metrics.js';

const call = (caller?: { identity?: string; client?: string }, outcome = 'ok') => ({
  tool: 'widgets_getWidget',
  outcome,
  durationMs: 1,
  requests: [],
  cache: 'none' as const,
  caller,
});

describe('calls by caller', () => {
  it('counts by identity, client and outcome, and not at all for a call without a caller', async () => {
    const metrics = new ServerMetrics();
    metrics.record(call({ identity: 'shop', client: 'alice' }));
    metrics.record(call({ identity: 'shop', client: 'alice' }));
    metrics.record(call({ identity: 'ops' }, 'rate-limited'));
    metrics.record(call());
    const text = (await metrics.scrape()).text;
    expect(text).toContain('flowguard_caller_calls_total{identity="shop",client="alice",outcome="ok"} 2');
    expect(text).toContain('flowguard_caller_calls_total{identity="ops",client="(none)",outcome="rate-limited"} 1');
    expect(text.match(/^flowguard_caller_calls_total\{/gm)).toHaveLength(2);
  });

  it(`keeps at most ${MAX_CLIENTS} client labels, then counts the rest as (other)`, async () => {
    const metrics = new ServerMetrics();
    for (let i = 0; i < MAX_CLIENTS + 50; i += 1) metrics.record(call({ identity: 'any', client: `client-${i}` }));
    const text = (await metrics.scrape()).text;
    expect(text.match(/^flowguard_caller_calls_total\{/gm)).toHaveLength(MAX_CLIENTS + 1);
    expect(text).toContain('flowguard_caller_calls_total{identity="any",client="(other)",outcome="ok"} 50');
  });
});
