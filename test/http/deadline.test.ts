// The deadline interceptor alone, on a plain undici Agent against a loopback server that holds
// answers back: one deadline over every hop, exchanges that expire in the order they started
// while one that answered in between is left alone, and nothing heard after an answer or a
// timeout. Deadlines here are short and the server holds its answers longer than any of them
// (or for ever), so a slow machine can only make the outcome come later, never change it.

import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/errors.js';
import { deadline } from '../../src/http/interceptors/deadline.js';
import { redirect } from '../../src/http/interceptors/redirect.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { composed, dispatchThrough, settle } from './dispatch-kit.js';

const DEADLINE_MS = 60;
/** The deadline over slow redirect hops: each hop takes 40% of it, so the third one passes it. */
const HOPS_DEADLINE_MS = 300;
let server: Upstream;
/** Answers the server holds until a test lets them go. */
const held = new Map<string, ServerResponse>();

beforeAll(async () => {
  server = await startUpstream((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hop = Number(url.searchParams.get('hop') ?? 0);
    if (url.pathname === '/hold')
      return void held.set(url.searchParams.get('name') ?? '', res.writeHead(200, { 'content-type': 'text/plain' }));
    // No hop alone passes the deadline, three together do.
    if (url.pathname === '/slow-hops')
      return void setTimeout(
        () => res.writeHead(302, { location: `/slow-hops?hop=${hop + 1}` }).end(),
        HOPS_DEADLINE_MS * 0.4,
      );
    res.writeHead(200, { 'content-type': 'text/plain' }).end('at once');
  });
});

afterAll(async () => {
  for (const res of held.values()) res.destroy();
  await server.close();
});

describe('deadline', () => {
  it('fails an exchange whose answer never ends, once, and drops its connection', async () => {
    const chain = composed([deadline(DEADLINE_MS)]);
    try {
      const outcome = await dispatchThrough(chain.dispatcher, { origin: server.origin, path: '/hold?name=never' });
      expect((outcome.error as HttpError).kind).toBe('timeout');
      expect(outcome.error?.message).toBe(`request timed out after ${DEADLINE_MS} ms (totalTimeoutMs)`);
      await settle();
      expect(outcome.late).toEqual([]);
      expect(held.get('never')?.destroyed).toBe(true);
    } finally {
      await chain.close();
    }
  });

  it('one deadline covers every redirect hop', async () => {
    const chain = composed([redirect(10), deadline(HOPS_DEADLINE_MS)]);
    try {
      const outcome = await dispatchThrough(chain.dispatcher, { origin: server.origin, path: '/slow-hops' });
      expect((outcome.error as HttpError).kind).toBe('timeout');
      expect(outcome.starts.length).toBeGreaterThanOrEqual(2);
    } finally {
      await chain.close();
    }
  });

  it('exchanges expire in the order they started; one answered in between is left alone', async () => {
    const chain = composed([deadline(DEADLINE_MS)]);
    try {
      const first = dispatchThrough(chain.dispatcher, { origin: server.origin, path: '/hold?name=first' });
      const answered = dispatchThrough(chain.dispatcher, { origin: server.origin, path: '/' });
      const third = dispatchThrough(chain.dispatcher, { origin: server.origin, path: '/hold?name=third' });
      const done = await answered;
      expect([done.error, done.body.toString()]).toEqual([null, 'at once']);
      const outcomes = await Promise.all([first, third]);
      expect(outcomes.map((outcome) => (outcome.error as HttpError).kind)).toEqual(['timeout', 'timeout']);
      // Past every deadline: the answered exchange heard nothing more.
      await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS * 2));
      expect(done.late).toEqual([]);
    } finally {
      await chain.close();
    }
  });

  it('an exchange that answers in time hears no timeout, and a later one still gets its own', async () => {
    const chain = composed([deadline(DEADLINE_MS)]);
    try {
      const quick = await dispatchThrough(chain.dispatcher, { origin: server.origin, path: '/' });
      expect(quick.error).toBeNull();
      const later = await dispatchThrough(chain.dispatcher, { origin: server.origin, path: '/hold?name=later' });
      expect((later.error as HttpError).kind).toBe('timeout');
      expect(quick.late).toEqual([]);
    } finally {
      await chain.close();
    }
  });
});
