// Opaque tokens asked about at an introspection endpoint (RFC 7662) that answers what no honest
// authorization server would (promise 13): an answer past the bound, one that never ends, a
// redirect elsewhere, `active` spelled as text or a number, no audience or another one, another
// issuer, an expired token, a page that is no JSON. Each is a 401 naming why, the next token is
// still judged, and the client secret goes to the configured endpoint only: a redirect is not
// followed, so the server it points to sees no request. Real loopback servers play the issuer
// and the place a redirect points to; the control is the same endpoint's honest answer.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/access/fetch.js';
import { Identities } from '../../src/access/identities.js';
import type { ResourceServer } from '../../src/access/resource.js';
import { prepareOAuth } from '../../src/access/setup.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';
const SECRET = 'introspection-secret-0123456789';
const TOKEN = 'opaque-token-0123456789abcdefghij';

type Answer = (res: ServerResponse, origin: string) => void;

async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{
  origin: string;
  server: Server;
}> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let issuer: { origin: string; server: Server };
let elsewhere: { origin: string; server: Server };
let answer: Answer;
const asked: Array<{ authorization?: string; body: string }> = [];
let elsewhereAsked = 0;
let server: ResourceServer;

const json =
  (body: unknown): Answer =>
  (res) =>
    void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

beforeAll(async () => {
  elsewhere = await listen((_req, res) => {
    elsewhereAsked += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ active: true, aud: RESOURCE }));
  });
  issuer = await listen((req, res) => {
    if (req.url === '/.well-known/oauth-authorization-server')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ issuer: issuer.origin, introspection_endpoint: `${issuer.origin}/introspect` }));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      asked.push({ authorization: req.headers.authorization, body: Buffer.concat(chunks).toString('utf8') });
      answer(res, issuer.origin);
    });
  });
  const prepared = await prepareOAuth(
    // Every answer asked for, none kept: each case plays its own answer to the same token (the cache: tokens.introspection-cache.test.ts).
    { introspection: { clientId: 'flowguard', clientSecretEnv: 'RS_SECRET', cacheSeconds: 0 } },
    { issuer: issuer.origin, resource: RESOURCE },
    { RS_SECRET: SECRET },
  );
  server = prepared!.serverFor(RESOURCE);
});
afterAll(async () => {
  for (const { server: listening } of [issuer, elsewhere]) {
    listening?.closeAllConnections();
    await new Promise<void>((resolve) => (listening ? listening.close(() => resolve()) : resolve()));
  }
});

const admit = (token = TOKEN) => server.admit(token, Identities.none());
const refused = async (why: RegExp) => {
  const admission = await admit();
  expect(admission).toMatchObject({ ok: false, status: 401 });
  // What failed at the endpoint is the operator's to read (the log's detail), never the caller's.
  expect(admission.ok === false && (admission.detail ?? admission.message)).toMatch(why);
  expect(admission.ok === false && admission.message).not.toContain(issuer.origin);
  expect(admission.ok === false && admission.challenge).toMatch(/error="invalid_token"/);
  // The next honest answer still admits: nothing is left stuck.
  answer = json({ active: true, aud: RESOURCE, client_id: 'app' });
  expect(await admit()).toMatchObject({ ok: true, caller: { client: 'app' } });
};

describe('an introspection answer no honest server gives', () => {
  it('admits the honest answer (the control), asking with the client secret and the token in the form', async () => {
    asked.length = 0;
    answer = json({ active: true, aud: [RESOURCE, 'https://other.example'], client_id: 'app', scope: 'a b' });
    expect(await admit()).toEqual({
      ok: true,
      caller: { subject: undefined, client: 'app', scopes: ['a', 'b'], groups: [] },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.authorization).toBe(`Basic ${Buffer.from(`flowguard:${SECRET}`).toString('base64')}`);
    expect(new URLSearchParams(asked[0]?.body).get('token')).toBe(TOKEN);
  });

  it('refuses an answer past the bound, also one sent in chunks without a length', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"active":true,"aud":"${RESOURCE}","pad":"`);
      const piece = 'x'.repeat(64 * 1024);
      for (let sent = 0; sent <= MAX_ANSWER_BYTES; sent += piece.length) res.write(piece);
      res.end('"}');
    };
    await refused(new RegExp(`could not be introspected: .*answered more than ${MAX_ANSWER_BYTES} bytes`));
    answer = (res) =>
      void res
        .writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_ANSWER_BYTES + 1) })
        .end('{}');
    await refused(/answered more than/);
  });

  it('does not follow a redirect: the place it points to is asked nothing, the secret goes nowhere else', async () => {
    elsewhereAsked = 0;
    answer = (res) => void res.writeHead(307, { location: `${elsewhere.origin}/introspect` }).end();
    await refused(/could not be introspected: .*answered HTTP 307/);
    expect(elsewhereAsked).toBe(0);
  });

  it('refuses `active` that is not the JSON true, a missing or other audience, another issuer, an expired token', async () => {
    for (const body of [
      { active: 'true', aud: RESOURCE },
      { active: 1, aud: RESOURCE },
      { active: [true], aud: RESOURCE },
      { aud: RESOURCE },
      { active: false, aud: RESOURCE },
    ]) {
      answer = json(body);
      await refused(/the token is not active/);
    }
    for (const aud of [undefined, 'https://other.example/mcp', [], ['https://other.example/mcp'], `${RESOURCE}/`]) {
      answer = json({ active: true, aud });
      await refused(/not issued for this server \(aud\)/);
    }
    answer = json({ active: true, aud: RESOURCE, iss: 'https://evil.example' });
    await refused(/another issuer/);
    answer = json({ active: true, aud: RESOURCE, exp: Math.floor(Date.now() / 1000) - 3600 });
    await refused(/expired/);
  });

  it('refuses a token not valid yet (nbf), and an exp, nbf or iat that is present but no finite number', async () => {
    const now = Math.floor(Date.now() / 1000);
    answer = json({ active: true, aud: RESOURCE, nbf: now + 3600, exp: now + 7200 });
    await refused(/not valid yet \(nbf\)/);
    for (const claim of ['exp', 'nbf', 'iat']) {
      for (const value of ['9999999999', null, true, { n: 1 }]) {
        answer = json({ active: true, aud: RESOURCE, [claim]: value });
        await refused(new RegExp(`the token's ${claim} claim is not a number of seconds`));
      }
      // JSON reads 1e999 as Infinity: an exp that never comes, or an nbf that never began.
      answer = (res) =>
        void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(`{"active":true,"aud":"${RESOURCE}","${claim}":1e999}`);
      await refused(new RegExp(`the token's ${claim} claim is not a number of seconds`));
    }
    // The control: each claim a number of seconds, nbf and iat just past, is admitted.
    answer = json({ active: true, aud: RESOURCE, client_id: 'app', nbf: now - 1, iat: now - 1, exp: now + 600 });
    expect(await admit()).toMatchObject({ ok: true, caller: { client: 'app' } });
  });

  it('refuses an error status, a page that is no JSON, and JSON that is no object', async () => {
    answer = (res) => void res.writeHead(500, { 'content-type': 'application/json' }).end('{"active":true}');
    await refused(/answered HTTP 500/);
    answer = (res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>active: true</html>');
    await refused(/did not answer JSON/);
    answer = (res) =>
      void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ active: true }]));
    await refused(/did not answer a JSON object/);
  });

  it('refuses an answer that never ends once its time is up, and judges the next token meanwhile', async () => {
    const hanging: ServerResponse[] = [];
    answer = (res) => {
      hanging.push(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"active":true,');
    };
    const slow = admit();
    // While the first waits, the endpoint answers the next one honestly.
    while (hanging.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    answer = json({ active: true, aud: RESOURCE, client_id: 'other' });
    expect(await admit('opaque-token-second-0123456789abc')).toMatchObject({ ok: true, caller: { client: 'other' } });
    const late = await slow;
    expect(late).toMatchObject({ ok: false, status: 401 });
    expect(late.ok === false && late.message).toMatch(/could not be introspected/);
    for (const res of hanging) res.destroy();
  }, 20_000);
});
