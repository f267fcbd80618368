// The project the observe suites serve: one schema with a key (from the project's .env), a route
// whose upstream echoes the request (the key included) or fails with the key in its body, and an
// executeRequest route whose handler makes two requests of its own through the core. The
// upstream is a real loopback server reached through an `upstreams` override.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { tempProject } from '../kit/project.js';
import { startUpstream, type RecordEntry, type Upstream } from '../support/upstream.js';

export const KEY = 'sk-audit-9Zq+4Wd/LmX7=';
export const REDACTED = '[redacted AUDIT_KEY]';

const SCHEMA = `export const main = {
    namespace: 'audited',
    name: 'Audited',
    description: 'Routes whose calls the observe suites record.',
    version: '2.0.0',
    docs: [],
    tags: [],
    root: 'https://api.audited.test',
    requiredServerParams: ['AUDIT_KEY'],
    headers: { 'x-api-key': '{{AUDIT_KEY}}' },
    routes: {
        lookup: {
            method: 'GET',
            path: '/lookup/{{mode}}',
            description: 'Answers as the mode says: echo, or fail (500 with the key in the body).',
            parameters: [
                { position: { key: 'mode', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(echo,fail)', options: [] } },
                { position: { key: 'q', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['optional()'] } }
            ],
            tests: [{ _description: 'echo', mode: 'echo' }]
        },
        twice: {
            method: 'GET',
            path: '/lookup/echo',
            description: 'Its handler asks the core for two requests.',
            parameters: [],
            tests: [{ _description: 'a' }]
        }
    }
};

export const handlers = ({ sharedLists, libraries }) => ({
    twice: {
        executeRequest: async ({ struct, payload }) => {
            const first = await fetch(payload.url, { headers: payload.headers });
            const second = await fetch('https://api.audited.test/lookup/fail', { headers: payload.headers });
            return { response: { first: first.status, second: second.status } };
        }
    }
});
`;

export const SCHEMA_FILE = 'audited.mjs';

function answer(req: IncomingMessage, res: ServerResponse, entry: RecordEntry): void {
  const key = String(req.headers['x-api-key'] ?? '');
  if (entry.url.startsWith('/lookup/fail'))
    return void res.writeHead(500, { 'content-type': 'text/plain' }).end(`refused key ${key}`);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: entry.url, key }));
}

export interface ObservedProject {
  dir: string;
  schemas: string;
  upstream: Upstream;
  close(): Promise<void>;
}

/** A temp project with the schema, its key in `.env`, and `config` as `.flowmcp/config.json`. */
export async function observedProject(config: Record<string, unknown> = {}): Promise<ObservedProject> {
  const upstream = await startUpstream(answer);
  const project = tempProject({
    config: { upstreams: { '*': upstream.origin }, ...config },
    env: { AUDIT_KEY: KEY },
    schemas: { [SCHEMA_FILE]: SCHEMA },
  });
  return {
    dir: project.dir,
    schemas: project.schemas,
    upstream,
    close: async () => {
      await upstream.close();
      project.remove();
    },
  };
}

/** Every piece of the key's secret part, 6 characters long, as written and percent-encoded. */
export function keyLeaks(text: string): string[] {
  const secret = KEY.slice('sk-audit-'.length);
  const pieces = new Set<string>();
  for (const spelling of [secret, encodeURIComponent(secret)]) {
    for (let at = 0; at + 6 <= spelling.length; at++) pieces.add(spelling.slice(at, at + 6));
  }
  return [...pieces].filter((piece) => text.includes(piece));
}
