// Real parts for the reload tests: a project folder in a temp directory whose schema files the
// tests rewrite, and a loopback upstream (test/support/upstream.ts) that can hold a request until
// the test releases it.

import { mkdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { tempProject } from '../kit/project.js';
import { startUpstream } from '../support/upstream.js';

export { BIN } from '../kit/spawn.js';
/** The origin the test schemas name; `--upstream` sends it to the loopback upstream. */
export const ORIGIN = 'https://api.shop.test';

export interface Route {
  name: string;
  path: string;
}

/** A 2.0.0 schema of namespace `shop` with GET routes; `broken` leaves a syntax error in it. */
export function shopSchema(routes: readonly Route[], { broken = false } = {}): string {
  const body = routes
    .map(
      (route) =>
        `        ${route.name}: { method: 'GET', path: '${route.path}', description: 'The ${route.name} route.', parameters: [], tests: [{ _description: 'Call it' }] }`,
    )
    .join(',\n');
  return [
    'export const main = {',
    "    namespace: 'shop',",
    "    name: 'Shop',",
    "    description: 'Items of a test shop.',",
    "    version: '2.0.0',",
    `    docs: ['${ORIGIN}/docs'],`,
    "    tags: ['test'],",
    `    root: '${ORIGIN}',`,
    `    routes: {\n${body}\n    }`,
    broken ? '  ,,, oops' : '}',
    '',
  ].join('\n');
}

export interface Project {
  dir: string;
  schemas: string;
  /** Writes `schemas/shop/<file>`. */
  write(file: string, text: string): void;
  remove(): void;
}

export function makeProject(files: Record<string, string>): Project {
  const project = tempProject({
    schemas: Object.fromEntries(Object.entries(files).map(([file, text]) => [join('shop', file), text])),
  });
  mkdirSync(join(project.schemas, 'shop'), { recursive: true });
  return {
    dir: project.dir,
    schemas: project.schemas,
    write: (file, text) => void project.write(join('schemas', 'shop', file), text),
    remove: project.remove,
  };
}

export interface HeldUpstream {
  url: string;
  /** Requests to `/held` that arrived and wait for `release()`. */
  held(): number;
  release(): void;
  close(): Promise<void>;
}

/** Answers `{ path }` as JSON at once, except `/held`, which waits for release() (at most 20 s). */
export async function startHeldUpstream(): Promise<HeldUpstream> {
  const waiting: ServerResponse[] = [];
  const answer = (res: ServerResponse, path: string) => {
    if (res.writableEnded) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path }));
  };
  const upstream = await startUpstream((req, res) => {
    const path = new URL(req.url ?? '/', 'http://upstream').pathname;
    if (path !== '/held') return answer(res, path);
    waiting.push(res);
    setTimeout(() => answer(res, path), 20_000).unref();
  });
  return {
    url: upstream.origin,
    held: () => waiting.length,
    release: () => waiting.splice(0).forEach((res) => answer(res, '/held')),
    close: upstream.close,
  };
}
