// The redirect interceptor alone, on a plain undici Agent against loopback servers, hostile ones
// included: endless redirects, redirects to another origin or a private address, a redirect
// whose body never ends, and a hop whose new connection the address policy refuses.

import type { ServerResponse } from 'node:http';
import { buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/errors.js';
import { redirect, type RedirectContext } from '../../src/http/interceptors/redirect.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { composed, dispatchThrough, settle } from './dispatch-kit.js';

let main: Upstream;
let other: Upstream;
const chain = composed([redirect(5)]);

function moved(res: ServerResponse, status: number, location: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { location, 'content-type': 'text/plain', ...extra }).end(`see ${location}`);
}

beforeAll(async () => {
  other = await startUpstream();
  main = await startUpstream((req, res, entry) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hop = Number(url.searchParams.get('hop') ?? 0);
    switch (url.pathname) {
      case '/chain':
        return hop < 3
          ? moved(res, 302, `/chain?hop=${hop + 1}`)
          : void res.writeHead(200, { 'content-type': 'text/plain' }).end(`arrived after ${hop}`);
      case '/endless':
        return moved(res, 302, `/endless?hop=${hop + 1}`);
      case '/to-other':
        return moved(res, 302, `${other.origin}/stolen?key=SECRET`);
      case '/to-metadata':
        return moved(res, 302, 'http://169.254.169.254/latest/meta-data/');
      case '/to-private':
        return moved(res, 307, 'http://10.0.0.1/admin');
      case '/two-locations':
        res.setHeader('location', ['/a', '/b']);
        return void res.writeHead(302).end();
      case '/see-other':
        return moved(res, 303, '/echo');
      case '/temporary':
        return moved(res, 307, '/echo');
      case '/closing':
        return moved(res, 302, '/echo', { connection: 'close' });
      case '/endless-body': {
        // A redirect whose body never ends: written in 16 KiB chunks until the client hangs up (at most 1,000).
        res.writeHead(302, { location: '/echo' });
        let left = 1_000;
        const pump = (): void => {
          if (res.destroyed || left-- === 0) return void res.end();
          if (res.write(Buffer.alloc(16 * 1024, 0x61))) setImmediate(pump);
          else res.once('drain', pump);
        };
        return pump();
      }
      case '/echo':
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ method: req.method, headers: req.headers, body: entry.body }));
      default:
        return void res.writeHead(404).end();
    }
  });
});

afterAll(async () => {
  await chain.close();
  await Promise.all([main.close(), other.close()]);
});

describe('redirect interceptor', () => {
  it('follows a same-origin chain and tells the next handler each hop', async () => {
    const outcome = await dispatchThrough(chain.dispatcher, { origin: main.origin, path: '/chain' });
    expect(outcome.error).toBeNull();
    expect(outcome.body.toString()).toBe('arrived after 3');
    expect(outcome.starts).toHaveLength(4);
    const last = outcome.starts[3] as RedirectContext;
    expect(last.redirects?.map((url) => url.href)).toEqual([1, 2, 3].map((hop) => `${main.origin}/chain?hop=${hop}`));
  });

  it('a request that is not redirected passes through with undici context untouched', async () => {
    const outcome = await dispatchThrough(chain.dispatcher, { origin: main.origin, path: '/echo' });
    expect(outcome.status).toBe(200);
    expect(outcome.starts).toHaveLength(1);
    expect((outcome.starts[0] as RedirectContext | undefined)?.redirects).toBeUndefined();
  });

  it('one policy serves every request: redirected ones each follow their own hops, the others pass, at once', async () => {
    // The redirect policy is one object shared by the requests until one is redirected (then that
    // request gets a Redirect of its own): requests in flight together must not see each other's hops.
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, at) =>
        dispatchThrough(chain.dispatcher, {
          origin: main.origin,
          path: at % 3 === 0 ? '/echo' : `/chain?hop=${at % 3}`,
        }),
      ),
    );
    outcomes.forEach((outcome, at) => {
      expect(outcome.error).toBeNull();
      expect(outcome.late).toEqual([]);
      if (at % 3 === 0) {
        expect(outcome.starts).toHaveLength(1);
        expect(JSON.parse(outcome.body.toString()).method).toBe('GET');
      } else {
        expect(outcome.body.toString()).toBe('arrived after 3');
        const hops = Array.from({ length: 3 - (at % 3) }, (_, hop) => `${main.origin}/chain?hop=${(at % 3) + hop + 1}`);
        expect(outcome.starts).toHaveLength(hops.length + 1);
        expect((outcome.starts.at(-1) as RedirectContext).redirects?.map((url) => url.href)).toEqual(hops);
      }
    });
  });

  it('stops endless redirects after maxRedirects hops, once', async () => {
    const before = main.hits();
    const outcome = await dispatchThrough(chain.dispatcher, { origin: main.origin, path: '/endless' });
    expect(outcome.error).toBeInstanceOf(HttpError);
    expect((outcome.error as HttpError).kind).toBe('too-many-redirects');
    expect(main.hits() - before).toBe(6);
    await settle();
    expect(outcome.late).toEqual([]);
  });

  it('refuses another origin without contacting it or naming the path', async () => {
    const outcome = await dispatchThrough(chain.dispatcher, { origin: main.origin, path: '/to-other' });
    expect((outcome.error as HttpError).kind).toBe('redirect-refused');
    expect(outcome.error?.message).toBe(`redirect to another origin refused: ${other.origin}`);
    expect(other.hits()).toBe(0);
  });

  it('reads a path that begins with // as a path of the origin, not as another host', async () => {
    // `/{{a}}/{{b}}` with `a` empty: the hop is judged against the origin the request went to.
    const path = `//${new URL(other.origin).host}/chain`;
    const outcome = await dispatchThrough(chain.dispatcher, { origin: main.origin, path });
    expect(outcome.error).toBeNull();
    expect(outcome.body.toString()).toBe('arrived after 3');
    expect(other.hits()).toBe(0);
  });

  it('refuses a redirect to a private or metadata address before any connection to it', async () => {
    for (const path of ['/to-metadata', '/to-private']) {
      const outcome = await dispatchThrough(chain.dispatcher, { origin: main.origin, path });
      expect((outcome.error as HttpError).kind).toBe('redirect-refused');
    }
  });

  it('refuses more than one Location', async () => {
    const outcome = await dispatchThrough(chain.dispatcher, { origin: main.origin, path: '/two-locations' });
    expect(outcome.error?.message).toBe('redirect refused: more than one Location header');
  });

  it('303 after POST goes on as a GET without the body or the headers that describe it; 307 keeps both', async () => {
    const post = {
      origin: main.origin,
      method: 'POST' as const,
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', 'x-keep': 'yes' },
    };
    const seeOther = JSON.parse(
      (await dispatchThrough(chain.dispatcher, { ...post, path: '/see-other' })).body.toString(),
    );
    expect(seeOther.method).toBe('GET');
    expect(seeOther.body).toBe('');
    expect(seeOther.headers['content-type']).toBeUndefined();
    expect(seeOther.headers['x-keep']).toBe('yes');
    const temporary = JSON.parse(
      (await dispatchThrough(chain.dispatcher, { ...post, path: '/temporary' })).body.toString(),
    );
    expect([temporary.method, temporary.body, temporary.headers['content-type']]).toEqual([
      'POST',
      '{"a":1}',
      'application/json',
    ]);
  });

  it('drops the connection of a redirect whose body never ends, and still follows it', async () => {
    const before = main.records.length;
    const outcome = await dispatchThrough(chain.dispatcher, { origin: main.origin, path: '/endless-body' });
    expect(outcome.error).toBeNull();
    expect(JSON.parse(outcome.body.toString()).method).toBe('GET');
    expect(main.records[before]?.closed).toBe(true);
    await settle();
    expect(outcome.late).toEqual([]);
  });

  it('sends each hop through the rest of the chain: its new connection is judged again', async () => {
    // The connector stands for the address policy: it allows the first connection only.
    const plain = buildConnector({});
    let connections = 0;
    const judged = composed([redirect(5)], {
      connect: (options, callback) => {
        connections++;
        if (connections > 1)
          return callback(new HttpError('private-address', 'second connection refused by the address policy'), null);
        plain(options, callback);
      },
    });
    try {
      const outcome = await dispatchThrough(judged.dispatcher, { origin: main.origin, path: '/closing' });
      expect(connections).toBe(2);
      expect(outcome.error?.message).toBe('second connection refused by the address policy');
    } finally {
      await judged.close();
    }
  });

  it('a judge of its own sees each hop beside the first URL, and its refusal is the error', async () => {
    const seen: string[] = [];
    const judged = composed([
      redirect(5, (next, first) => {
        seen.push(`${first.pathname} -> ${next.pathname}${next.search}`);
        return next.searchParams.get('hop') === '2' ? 'hop 2 is outside the reach' : null;
      }),
    ]);
    try {
      const outcome = await dispatchThrough(judged.dispatcher, { origin: main.origin, path: '/chain' });
      expect(seen).toEqual(['/chain -> /chain?hop=1', '/chain -> /chain?hop=2']);
      expect(outcome.error?.message).toBe('hop 2 is outside the reach');
    } finally {
      await judged.close();
    }
  });

  it('maxRedirects 0 refuses the first redirect', async () => {
    const none = composed([redirect(0)]);
    try {
      const outcome = await dispatchThrough(none.dispatcher, { origin: main.origin, path: '/chain' });
      expect((outcome.error as HttpError).kind).toBe('too-many-redirects');
    } finally {
      await none.close();
    }
  });
});
