// `flowguard import openapi` on real public documents (test/fixtures/openapi/README.md): for each,
// every operation becomes a route or an error finding, the written files pass the project's
// checker with no error, and a dry run of every route builds the request the document describes.
// The expectations are read from the document itself (parsed here on its own), never from the
// converter: method, path, query, body keys and where each key goes.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dereference } from '@readme/openapi-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { importOpenApi, type ImportResult } from '../../src/openapi/import.js';
import { ProjectChecker } from '../../src/project/checker.js';
import { tempProject } from '../kit/project.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'openapi');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Raw = Record<string, any>;

const fixtures: Array<{ file: string; operations: number; routes: number; keys: string[] }> = [
  { file: 'swagger2-petstore.json', operations: 20, routes: 11, keys: ['header'] },
  { file: 'nytimes-most-popular.yaml', operations: 3, routes: 3, keys: ['query'] },
  { file: 'readme-v1-basic.json', operations: 36, routes: 34, keys: ['basic'] },
  { file: 'readme-v2-bearer.json', operations: 54, routes: 46, keys: ['bearer'] },
  { file: 'stapi-star-trek.json', operations: 120, routes: 120, keys: [] },
  { file: 'trello.json', operations: 324, routes: 324, keys: ['query'] },
];

describe.each(fixtures)('import openapi $file', ({ file, operations, routes, keys }) => {
  const project = tempProject();
  afterAll(() => project.remove());
  const out = join(project.dir, 'schemas');
  let result: ImportResult;
  let document: Raw;

  it('turns every operation into a route or an error finding, each exactly once', async () => {
    result = await importOpenApi(join(FIXTURES, file));
    document = (await dereference(join(FIXTURES, file), {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
    })) as Raw;
    const labels = Object.entries(document.paths as Raw).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(labels).toHaveLength(operations);
    const written = result.files.flatMap((planned) => planned.routes.map((route) => route.operation));
    const failed = [
      ...new Set(
        result.report.findings.filter((finding) => finding.severity === 'error').map((finding) => finding.operation),
      ),
    ];
    expect(written.filter((label) => failed.includes(label))).toEqual([]);
    expect([...written, ...failed].sort()).toEqual([...labels].sort());
    expect(new Set(written).size).toBe(written.length);
    expect(result.report.summary).toMatchObject({ operations, routes, skipped: operations - routes, excluded: 0 });
    // At most eight routes a file.
    expect(Math.max(...result.files.map((planned) => planned.routes.length))).toBeLessThanOrEqual(8);
  });

  it('writes files the project checker passes with no error', () => {
    mkdirSync(out, { recursive: true });
    for (const planned of result.files) writeFileSync(join(out, planned.name), planned.text);
    const checker = ProjectChecker.open({ project: project.dir });
    for (const planned of result.files) {
      const errors = checker
        .checkFile(join(out, planned.name))
        .findings.filter((finding) => finding.severity === 'error');
      expect(errors, planned.name).toEqual([]);
    }
  });

  it('dry-runs every route to the request the document describes', async () => {
    const keyNames = [
      ...new Set(
        result.files.flatMap((planned) =>
          [...planned.text.matchAll(/'\{\{([A-Z][A-Z0-9_]*)\}\}'|\{\{([A-Z][A-Z0-9_]*)\}\}/g)].map(
            (match) => (match[1] ?? match[2]) as string,
          ),
        ),
      ),
    ];
    const catalog = await Catalog.load({
      schemas: out,
      project: project.dir,
      env: {},
      keys: Object.fromEntries(keyNames.map((key) => [key, `secret-${key.toLowerCase()}`])),
    });
    try {
      expect(catalog.tools).toHaveLength(routes);
      const placements = new Set<string>();
      for (const tool of catalog.tools) {
        const label = result.files.flatMap((planned) => planned.routes).find((route) => route.name === tool.route.name)
          ?.operation as string;
        const [method, path] = label.split(' ') as [string, string];
        const operation = document.paths[path][method.toLowerCase()] as Raw;
        const args = Object.fromEntries(
          Object.entries(tool.route.tests[0] ?? {}).filter(([key]) => key !== '_description'),
        );
        const call = await catalog.call(tool.name, args, { dryRun: true });
        if (!call.ok || !('dryRun' in call)) throw new Error(`${label}: ${JSON.stringify(call)}`);
        const request = call.dryRun;
        expect(request.method, label).toBe(method);
        const url = new URL(request.url);
        expect(`${url.origin}${url.pathname}`, label).toMatch(pathPattern(serverOf(document, operation, path), path));

        const parameters = [...(document.paths[path].parameters ?? []), ...(operation.parameters ?? [])] as Raw[];
        const documented = new Set(
          parameters.filter((param) => param.in === 'query').map((param) => param.name as string),
        );
        const schemes = securitySchemes(document);
        const declared = (operation.security ?? document.security ?? []) as Raw[];
        // No requirement, or an empty list, means the operation needs no key.
        const alternatives = declared.length > 0 ? declared : [{}];
        const keyQueries = new Set(
          alternatives.flatMap((alternative) =>
            Object.keys(alternative)
              .filter((name) => schemes[name]?.in === 'query')
              .map((name) => schemes[name].name as string),
          ),
        );
        for (const name of new Set(url.searchParams.keys()))
          expect(documented.has(name) || keyQueries.has(name), `${label}: query ${name}`).toBe(true);
        for (const param of parameters.filter((entry) => entry.in === 'query' && args[entry.name] !== undefined)) {
          const value = args[param.name];
          expect(url.searchParams.get(param.name), `${label}: query ${param.name}`).toBe(
            Array.isArray(value) ? value.join(',') : String(value),
          );
        }
        const satisfied = alternatives.find((alternative) =>
          Object.keys(alternative).every((name) => placed(schemes[name], request.headers, url)),
        );
        expect(satisfied, `${label}: no security alternative of the document is placed`).toBeDefined();
        for (const name of Object.keys(satisfied ?? {})) placements.add(kindOf(schemes[name]));

        if (request.body !== undefined) {
          const body = JSON.parse(request.body) as Raw;
          const properties = bodyProperties(document, operation, parameters);
          for (const key of Object.keys(body)) expect(properties, `${label}: body ${key}`).toContain(key);
          for (const key of Object.keys(args).filter((name) => properties.includes(name) && !documented.has(name)))
            expect(body[key], `${label}: body ${key}`).toEqual(args[key]);
        }
      }
      expect([...placements].sort()).toEqual([...keys].sort());
    } finally {
      await catalog.close();
    }
  });
});

/** The origin and base path of the operation's server, https as FlowMCP roots are. */
function serverOf(document: Raw, operation: Raw, path: string): string {
  if (document.swagger) return `https://${document.host}${document.basePath ?? ''}`;
  const servers = (operation.servers ?? document.paths[path].servers ?? document.servers) as Raw[];
  const server = servers.find((entry) => String(entry.url).startsWith('https://')) ?? servers[0]!;
  const url = String(server.url).replace(/\{(\w+)\}/g, (_, name: string) => server.variables[name].default);
  return url.replace(/^http:/, 'https:').replace(/\/$/, '');
}

/** The document's path with each `{param}` as one non-empty path segment. */
function pathPattern(base: string, path: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${escape(base)}${path
      .split(/\{[^}]+\}/)
      .map(escape)
      .join('[^/]+')}$`,
  );
}

function securitySchemes(document: Raw): Raw {
  return (document.swagger ? document.securityDefinitions : document.components?.securitySchemes) ?? {};
}

function placed(scheme: Raw, headers: Record<string, string>, url: URL): boolean {
  const header = (name: string) =>
    Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1] ?? '';
  const redacted = /redacted/;
  if (scheme.type === 'apiKey' && scheme.in === 'header') return redacted.test(header(scheme.name));
  if (scheme.type === 'apiKey' && scheme.in === 'query') return redacted.test(url.searchParams.get(scheme.name) ?? '');
  if (kindOf(scheme) === 'bearer') return /^Bearer .*redacted/.test(header('authorization'));
  if (kindOf(scheme) === 'basic') return /^Basic .*redacted/.test(header('authorization'));
  return false;
}

function kindOf(scheme: Raw): string {
  if (scheme.type === 'apiKey') return scheme.in;
  if (scheme.type === 'basic') return 'basic';
  return String(scheme.scheme ?? scheme.type).toLowerCase();
}

function bodyProperties(document: Raw, operation: Raw, parameters: Raw[]): string[] {
  const schema = document.swagger
    ? parameters.find((param) => param.in === 'body')?.schema
    : Object.entries((operation.requestBody?.content ?? {}) as Raw).find(([type]) => /json/.test(type))?.[1]?.schema;
  const members = [schema, ...((schema?.allOf ?? []) as Raw[])];
  return members.flatMap((member) => Object.keys(member?.properties ?? {}));
}
