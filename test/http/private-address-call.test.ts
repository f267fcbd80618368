// Issue 13, point 3, through the whole call pipeline: a schema whose root is (or resolves to) a
// loopback address must not reach the TLS service listening there, key included, unless the
// operator allows it. The listener counts TCP connections; a refusal leaves it at zero.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { KEY, keyedSchema, makeProject, type TestProject } from './project.js';

let internal: Upstream;
const projects: TestProject[] = [];

beforeAll(async () => {
  internal = await startUpstream(
    (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('internal service'),
    { tls: true },
  );
});

afterAll(async () => {
  await internal.close();
  for (const project of projects) project.remove();
});

async function callOnce(schema: string, config?: unknown, upstreams?: Record<string, string>) {
  const project = makeProject(schema, config);
  projects.push(project);
  const catalog: Catalog = await project.load(upstreams ? { upstreams } : {});
  const before = internal.connections();
  try {
    const tool = catalog.tool('internal_getThing');
    const result = tool ? await catalog.call('internal_getThing', {}) : null;
    return { result, connections: internal.connections() - before, findings: catalog.findings() };
  } finally {
    await catalog.close();
  }
}

describe('a schema root on a private address', () => {
  it.each([
    ['https://127.0.0.1:PORT', () => `https://127.0.0.1:${internal.port}`],
    ['https://localhost:PORT', () => `https://localhost:${internal.port}`],
  ])('%s is refused without a connection', async (_name, root) => {
    const { result, connections } = await callOnce(keyedSchema(root()));
    expect(connections).toBe(0);
    expect(result).toMatchObject({ ok: false, error: { kind: 'upstream-failure' } });
    const message = result?.ok === false ? result.error.message : '';
    expect(message).toMatch(
      /^upstream request failed: https:\/\/(127\.0\.0\.1|localhost):\d+ resolves to a private address \((127\.0\.0\.1|::1), loopback\); refused\. Allow it with network\.allowPrivate in \.flowmcp\/config\.json$/,
    );
    expect(message).not.toContain(KEY);
  });

  it('a --host-- root that a preRequest fills with localhost does not load (VAL027), so nothing is sent', async () => {
    const handlers =
      "export const handlers = () => ({ getThing: { preRequest: ({ struct }) => ({ struct: { ...struct, url: struct.url.replace('--host--', 'localhost') } }) } });";
    const { result, connections, findings } = await callOnce(
      keyedSchema(`https://--host--:${internal.port}`, handlers),
    );
    expect(findings.map((f) => f.code)).toContain('VAL027');
    expect(result).toBeNull();
    expect(connections).toBe(0);
  });
});

describe('the operator allows it', () => {
  // Reaching the service is all these show: its certificate is self-signed, so the call then
  // fails its TLS handshake.
  it('network.allowPrivate: true', async () => {
    const { connections } = await callOnce(keyedSchema(`https://127.0.0.1:${internal.port}`), {
      network: { allowPrivate: true },
    });
    expect(connections).toBe(1);
  });

  it('network.allowPrivate naming the origin', async () => {
    const { connections } = await callOnce(keyedSchema(`https://localhost:${internal.port}`), {
      network: { allowPrivate: [`https://localhost:${internal.port}`] },
    });
    expect(connections).toBe(1);
  });

  it('network.allowPrivate naming another origin does not', async () => {
    const { connections } = await callOnce(keyedSchema(`https://localhost:${internal.port}`), {
      network: { allowPrivate: ['https://localhost:1'] },
    });
    expect(connections).toBe(0);
  });

  it('an upstream override to the address', async () => {
    const { connections } = await callOnce(keyedSchema('https://api.example.test'), undefined, {
      'https://api.example.test': `https://127.0.0.1:${internal.port}`,
    });
    expect(connections).toBe(1);
  });
});
