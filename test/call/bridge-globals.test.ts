// Issue 24, point 4: the globals handlers use, through the real sandbox and bridge. A handler's
// AbortController cancels its request upstream (the loopback upstream sees the connection go
// before it answered), AbortSignal.timeout(ms) is a bound the core keeps on the request, and the
// answer's headers are WHATWG Headers whose getSetCookie() gives each cookie, commas and all.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';

const SCHEMA = `export const main = {
    namespace: 'globals', name: 'Globals', description: 'Handlers that use the globals of fetch.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.globals.test',
    routes: {
        cancel: { method: 'GET', path: '/slow', description: 'Aborts its own request.', parameters: [], tests: [{ _description: 'a' }] },
        timeout: { method: 'GET', path: '/slow', description: 'A request with a timeout.', parameters: [], tests: [{ _description: 'a' }] },
        cookies: { method: 'GET', path: '/cookies', description: 'Reads each cookie.', parameters: [], tests: [{ _description: 'a' }] }
    }
};
export const handlers = ({ sharedLists, libraries }) => ({
    cancel: { executeRequest: async ({ struct }) => {
        const controller = new AbortController();
        const pending = fetch('https://api.globals.test/slow?by=controller', { signal: controller.signal });
        // Aborted once the upstream holds it: /sent answers only then.
        await fetch('https://api.globals.test/sent');
        controller.abort();
        try { await pending; return { response: 'answered' }; } catch (error) { return { response: error.name }; }
    } },
    timeout: { executeRequest: async ({ struct }) => {
        try { await fetch('https://api.globals.test/slow?by=timeout', { signal: AbortSignal.timeout(200) }); return { response: 'answered' }; }
        catch (error) { return { response: error.name }; }
    } },
    cookies: { executeRequest: async ({ struct }) => {
        const answer = await fetch('https://api.globals.test/cookies');
        return { response: { each: answer.headers.getSetCookie(), joined: answer.headers.get('set-cookie'), type: answer.headers.get('content-type') } };
    } }
});
`;

let upstream: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;
/** Requests to /slow whose connection went before they were answered. */
const dropped: string[] = [];
/** Requests to /slow that have arrived: /sent answers only once one has (so the handler aborts a request the upstream holds). */
const arrived: string[] = [];

/** The outbound records of a call's result. */
function requestsOf(result: Awaited<ReturnType<Catalog['call']>>): unknown[] {
  return 'requests' in result ? (result.requests ?? []) : [];
}

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    if (req.url?.startsWith('/slow')) {
      arrived.push(req.url);
      // Never answers by itself: only the client's going ends it.
      res.on('close', () => {
        if (!res.writableEnded) dropped.push(req.url ?? '');
      });
      return;
    }
    if (req.url === '/cookies') {
      res.setHeader('content-type', 'text/plain');
      res.setHeader('set-cookie', ['a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/', 'b=2; HttpOnly']);
      res.end('ok');
      return;
    }
    void waitFor(() => arrived.includes('/slow?by=controller'), 10_000).then(() => res.end('sent'));
  });
  loaded = await loadProjectCatalog(
    { schemas: { 'globals.mjs': SCHEMA } },
    { upstreams: { 'https://api.globals.test': upstream.origin }, sandbox: { size: 1 } },
  );
  catalog = loaded.catalog;
}, 60_000);

afterAll(async () => {
  await loaded?.close();
  await upstream?.close();
});

describe('the globals of a bridged fetch', () => {
  it("an AbortController's abort cancels the request upstream, and the fetch rejects with an AbortError", async () => {
    const result = await catalog.call('globals_cancel', {});
    expect(result).toMatchObject({ ok: true, content: { value: 'AbortError' } });
    expect(await waitFor(() => dropped.includes('/slow?by=controller'), 10_000)).toBe(true);
    expect(requestsOf(result)).toContainEqual(
      expect.objectContaining({ status: 0, error: 'ABORTED: the handler aborted this request (its AbortSignal)' }),
    );
  });

  it('AbortSignal.timeout(ms) bounds the request in the core: a TimeoutError, and the upstream is let go', async () => {
    const result = await catalog.call('globals_timeout', {});
    expect(result).toMatchObject({ ok: true, content: { value: 'TimeoutError' } });
    expect(await waitFor(() => dropped.includes('/slow?by=timeout'), 10_000)).toBe(true);
    expect(requestsOf(result)).toContainEqual(
      expect.objectContaining({ status: 0, error: expect.stringMatching(/^TIMEOUT: no answer within 200 ms/) }),
    );
  });

  it('the answer has WHATWG Headers: getSetCookie() gives each cookie whole, get() joins them', async () => {
    const result = await catalog.call('globals_cookies', {});
    expect(result).toMatchObject({
      ok: true,
      content: {
        value: {
          each: ['a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/', 'b=2; HttpOnly'],
          joined: 'a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, b=2; HttpOnly',
          type: 'text/plain',
        },
      },
    });
  });
});
