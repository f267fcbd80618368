// Hostile requests a client can make to the Streamable HTTP endpoint itself, beside its tool
// calls: two Host lines, another server's name, no token, and the session of the suite's own
// client used or closed with another valid token. Each has the answer it must get; a DELETE
// that did close the session shows again in the next case's health check (tools/list fails).

import { connect } from 'node:net';
import { rawRequest } from '../edge/helpers.js';
import { bounded } from './servers.js';

export const PROBES = ['none', 'two-hosts', 'foreign-session', 'foreign-delete', 'evil-host', 'no-token'] as const;
export type Probe = (typeof PROBES)[number];

export interface ProbeTarget {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  /** The session the suite's client holds. */
  sessionId: string | undefined;
  /** The token the suite's client uses, and another valid one. */
  token: string;
  otherToken: string;
}

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const MCP = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** One request written byte for byte (node's client would not send two Host lines); resolves with the status. */
function rawStatus(url: string, head: string[], body: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(target.port), target.hostname);
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      if (answer.includes('\r\n')) socket.destroy();
    });
    socket.on('close', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on('error', () => undefined);
    socket.setTimeout(10_000, () => socket.destroy());
    socket.write(
      [
        `POST ${target.pathname} HTTP/1.1`,
        ...head,
        `content-length: ${Buffer.byteLength(body)}`,
        'connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}

/** The violation `probe` shows, or null when the server answered as it must (within 15 s). */
export function runProbe(probe: Probe, target: ProbeTarget): Promise<string | null> {
  return bounded(answerOf(probe, target), 15_000, `the ${probe} probe got no answer within 15 s`);
}

async function answerOf(probe: Probe, target: ProbeTarget): Promise<string | null> {
  const session: Record<string, string> = target.sessionId ? { 'mcp-session-id': target.sessionId } : {};
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const host = `127.0.0.1:${new URL(target.url).port}`;
  switch (probe) {
    case 'none':
      return null;
    case 'two-hosts': {
      const head = [
        `host: ${host}`,
        'host: evil.example',
        ...Object.entries({ ...MCP, ...auth(target.token), ...session }).map(([name, value]) => `${name}: ${value}`),
      ];
      const status = await rawStatus(target.url, head, LIST);
      return status === 400
        ? null
        : `a request with two Host lines (${host}, then evil.example) was answered ${status}, not 400`;
    }
    case 'foreign-session': {
      const { status } = await rawRequest(target.url, {
        method: 'POST',
        headers: { ...MCP, ...auth(target.otherToken), ...session },
        body: LIST,
      });
      return status >= 400 && status < 500
        ? null
        : `the session opened with one token answered ${status} to a request with another token`;
    }
    case 'foreign-delete': {
      const { status } = await rawRequest(target.url, {
        method: 'DELETE',
        headers: { ...MCP, ...auth(target.otherToken), ...session },
      });
      return status >= 400 && status < 500
        ? null
        : `a DELETE with another token answered ${status} for the session opened with one token`;
    }
    case 'evil-host': {
      const { status } = await rawRequest(target.url, {
        method: 'POST',
        headers: { ...MCP, ...auth(target.token), ...session, host: 'evil.example' },
        body: LIST,
      });
      return status === 403 ? null : `a request with Host evil.example was answered ${status}, not 403`;
    }
    case 'no-token': {
      const { status } = await rawRequest(target.url, { method: 'POST', headers: { ...MCP, ...session }, body: LIST });
      return status === 401 ? null : `a request without a token was answered ${status}, not 401`;
    }
  }
}
