// The converter on small documents written for one shape each: what a route says about bounds,
// enums, defaults, bodies, outputs and keys, and which shapes become findings instead of routes.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importOpenApi, type ImportResult } from '../../src/openapi/import.js';
import { MAX_OUTPUT_DEPTH } from '../../src/schema/output.js';

const work = mkdtempSync(join(tmpdir(), 'flowguard-openapi-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function run(document: object, name = 'doc.json'): Promise<ImportResult> {
  const file = join(work, name);
  writeFileSync(file, JSON.stringify(document));
  return importOpenApi(file);
}

const ok = { '200': { description: 'ok' } };

function openapi(paths: object, extra: object = {}): object {
  return {
    openapi: '3.1.0',
    info: { title: 'Demo API', version: '1' },
    servers: [{ url: 'https://api.example.com/v1/' }],
    paths,
    ...extra,
  };
}

let imported = 0;

/** `main` of the file holding a route, read back from the generated text. */
async function mainOf(result: ImportResult, route: string): Promise<any> {
  const file = result.files.find((planned) => planned.routes.some((entry) => entry.name === route));
  if (!file) throw new Error(`no file holds ${route}: ${JSON.stringify(result.report.findings)}`);
  // A new path each time: import() caches modules by URL.
  const path = join(work, `${route}-${++imported}-${file.name}`);
  writeFileSync(path, file.text);
  return (await import(path)).main;
}

describe('parameters', () => {
  it('carry types, bounds, enums, patterns and defaults in the z grammar', async () => {
    const result = await run(
      openapi({
        '/items/{item-id}': {
          get: {
            operationId: 'get_item',
            summary: 'One item',
            parameters: [
              {
                name: 'item-id',
                in: 'path',
                required: true,
                description: '  The   item.\n Its id. ',
                schema: { type: 'integer', minimum: 1, maximum: 1000 },
                example: 7,
              },
              {
                name: 'limit',
                in: 'query',
                schema: { type: 'integer', exclusiveMinimum: 0, maximum: 100, default: 10 },
              },
              { name: 'sort', in: 'query', required: true, schema: { type: 'string', enum: ['asc', 'desc'] } },
              {
                name: 'code',
                in: 'query',
                schema: { type: 'string', minLength: 2, maxLength: 3, pattern: '^[A-Z]+$' },
              },
              { name: 'verbose', in: 'query', schema: { type: ['boolean', 'null'], default: false } },
            ],
            responses: ok,
          },
        },
      }),
    );
    const main = await mainOf(result, 'getItem');
    expect(main.root).toBe('https://api.example.com/v1');
    expect(main.routes.getItem.path).toBe('/items/{{itemId}}');
    expect(main.routes.getItem.parameters).toEqual([
      {
        position: { key: 'limit', value: '{{USER_PARAM}}', location: 'query' },
        z: { primitive: 'number()', options: ['min(1)', 'max(100)', 'optional()', 'default(10)'] },
      },
      {
        position: { key: 'sort', value: '{{USER_PARAM}}', location: 'query' },
        z: { primitive: 'enum(asc,desc)', options: [] },
      },
      {
        position: { key: 'code', value: '{{USER_PARAM}}', location: 'query' },
        z: { primitive: 'string()', options: ['min(2)', 'max(3)', 'regex(^[A-Z]+$)', 'optional()'] },
      },
      {
        position: { key: 'verbose', value: '{{USER_PARAM}}', location: 'query' },
        z: { primitive: 'boolean()', options: ['optional()', 'default(false)'] },
      },
      {
        position: { key: 'itemId', value: '{{USER_PARAM}}', location: 'insert' },
        z: { primitive: 'number()', options: ['min(1)', 'max(1000)'] },
        description: 'The item. Its id.',
      },
    ]);
    // The example where there is one, the first enum value for a required parameter without.
    expect(main.routes.getItem.tests).toEqual([
      { _description: 'One item (values from the OpenAPI document)', sort: 'asc', itemId: 7 },
    ]);
  });

  it('a required header or cookie parameter is a finding, an optional one a warning and left out', async () => {
    const result = await run(
      openapi({
        '/a': {
          get: {
            operationId: 'a',
            parameters: [{ name: 'X-Trace', in: 'header', required: true, schema: { type: 'string' } }],
            responses: ok,
          },
        },
        '/b': {
          get: {
            operationId: 'b',
            parameters: [{ name: 'session', in: 'cookie', schema: { type: 'string' } }],
            responses: ok,
          },
        },
      }),
    );
    expect(result.files.flatMap((file) => file.routes.map((route) => route.name))).toEqual(['b']);
    expect(result.report.findings).toEqual([
      {
        kind: 'parameter',
        severity: 'error',
        operation: 'GET /a',
        message:
          "header parameter 'X-Trace' cannot be sent by a FlowMCP route (headers are fixed per file, cookies unsupported)",
      },
      {
        kind: 'parameter',
        severity: 'warning',
        operation: 'GET /b',
        message:
          "cookie parameter 'session' cannot be sent by a FlowMCP route (headers are fixed per file, cookies unsupported), so it was left out",
      },
    ]);
  });

  it('a pattern with lookaround or a backreference is left out with a warning: the route it writes is served', async () => {
    const param = (name: string, pattern: string) => ({ name, in: 'query', schema: { type: 'string', pattern } });
    const result = await run(
      openapi({
        '/p': {
          get: {
            operationId: 'p',
            parameters: [param('ahead', '^(?!admin)[a-z]+$'), param('twice', '^(a)\\1$'), param('plain', '^[a-z]+$')],
            responses: ok,
          },
        },
      }),
    );
    const main = await mainOf(result, 'p');
    expect(main.routes.p.parameters.map((entry: { z: { options: string[] } }) => entry.z.options)).toEqual([
      ['optional()'],
      ['optional()'],
      ['regex(^[a-z]+$)', 'optional()'],
    ]);
    expect(result.report.findings.map((finding) => finding.message)).toEqual([
      expect.stringContaining('pattern "^(?!admin)[a-z]+$" (not a JavaScript regular expression flowguard can match'),
      expect.stringContaining('pattern "^(a)\\\\1$" (not a JavaScript regular expression flowguard can match'),
    ]);
  });

  it('JSON body properties become body parameters; multipart and array bodies do not', async () => {
    const result = await run(
      openapi({
        '/notes': {
          post: {
            operationId: 'createNote',
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['text'],
                    properties: {
                      text: { type: 'string', example: 'hi' },
                      tags: { type: 'array' },
                      id: { type: 'string', readOnly: true },
                    },
                  },
                },
              },
            },
            responses: ok,
          },
          put: {
            operationId: 'upload',
            requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } },
            responses: ok,
          },
          delete: {
            operationId: 'many',
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'array' } } } },
            responses: ok,
          },
        },
      }),
    );
    const main = await mainOf(result, 'createNote');
    expect(
      main.routes.createNote.parameters.map((param: any) => [
        param.position.key,
        param.position.location,
        param.z.primitive,
        param.z.options,
      ]),
    ).toEqual([
      ['text', 'body', 'string()', []],
      ['tags', 'body', 'array()', ['optional()']],
    ]);
    expect(main.routes.createNote.tests[0].text).toBe('hi');
    expect(result.report.findings.map((finding) => [finding.operation, finding.severity, finding.kind])).toEqual([
      ['PUT /notes', 'error', 'body'],
      ['DELETE /notes', 'error', 'body'],
    ]);
  });
});

describe('keys', () => {
  const schemes = {
    oauth: { type: 'oauth2', flows: {} },
    cookieKey: { type: 'apiKey', in: 'cookie', name: 'k' },
    headerKey: { type: 'apiKey', in: 'header', name: 'X-Key' },
    bearer: { type: 'http', scheme: 'bearer' },
    basic: { type: 'http', scheme: 'basic' },
  };
  it('OAuth2 is a finding unless the operation also accepts a key; each key goes where the document puts it', async () => {
    const result = await run(
      openapi(
        {
          '/oauth-only': { get: { operationId: 'oauthOnly', security: [{ oauth: [] }], responses: ok } },
          '/cookie': { get: { operationId: 'cookie', security: [{ cookieKey: [] }], responses: ok } },
          '/either': { get: { operationId: 'either', security: [{ oauth: [] }, { headerKey: [] }], responses: ok } },
          '/bearer': { get: { operationId: 'bearer', security: [{ bearer: [] }], responses: ok } },
          '/basic': { get: { operationId: 'basic', security: [{ basic: [] }], responses: ok } },
          '/open': { get: { operationId: 'open', security: [], responses: ok } },
        },
        { components: { securitySchemes: schemes }, security: [{ bearer: [] }] },
      ),
    );
    expect(
      result.report.findings
        .filter((finding) => finding.severity === 'error')
        .map((finding) => [finding.operation, finding.kind]),
    ).toEqual([
      ['GET /oauth-only', 'security'],
      ['GET /cookie', 'security'],
    ]);
    expect((await mainOf(result, 'either')).headers).toEqual({ 'X-Key': '{{DEMO_HEADER_KEY}}' });
    expect((await mainOf(result, 'bearer')).headers).toEqual({ Authorization: 'Bearer {{DEMO_BEARER}}' });
    const basic = await mainOf(result, 'basic');
    expect(basic.headers).toEqual({ Authorization: 'Basic {{DEMO_BASIC}}' });
    expect(basic.requiredServerParams).toEqual(['DEMO_BASIC']);
    // Routes with other keys never share a file: headers and requiredServerParams are per file.
    const open = await mainOf(result, 'open');
    expect(open).toMatchObject({ headers: {}, requiredServerParams: [] });
    expect(Object.keys(open.routes)).toEqual(['open']);
  });
});

describe('files, servers and outputs', () => {
  it('more than eight operations of one tag make two files; route names stay unique', async () => {
    const paths = Object.fromEntries(
      Array.from({ length: 10 }, (_, n) => [
        `/things/${n}`,
        { get: { operationId: n < 2 ? 'same' : `thing${n}`, tags: ['Things'], responses: ok } },
      ]),
    );
    const result = await run(openapi(paths));
    expect(result.files.map((file) => [file.name, file.routes.length])).toEqual([
      ['things.mjs', 8],
      ['things2.mjs', 2],
    ]);
    expect(result.files[0]!.routes.slice(0, 2).map((route) => route.name)).toEqual(['same', 'same2']);
  });

  it('server variables take their defaults; a relative server is a finding for every operation', async () => {
    const variables = await run(
      openapi(
        { '/x': { get: { operationId: 'x', responses: ok } } },
        { servers: [{ url: 'https://{region}.example.com', variables: { region: { default: 'eu' } } }] },
      ),
    );
    expect((await mainOf(variables, 'x')).root).toBe('https://eu.example.com');
    const relative = await run(
      openapi({ '/x': { get: { responses: ok } }, '/y': { get: { responses: ok } } }, { servers: [{ url: '/api' }] }),
      'relative.json',
    );
    expect(relative.files).toEqual([]);
    expect(relative.report.findings.map((finding) => [finding.operation, finding.kind])).toEqual([
      ['GET /x', 'document'],
      ['GET /y', 'document'],
    ]);
  });

  it('a 2xx JSON response becomes the output schema, at most four levels deep', async () => {
    const deep = (depth: number): object =>
      depth === 0 ? { type: 'string' } : { type: 'object', properties: { next: deep(depth - 1) } };
    const result = await run(
      openapi({
        '/deep': {
          get: {
            operationId: 'deep',
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: deep(6) } } } },
          },
        },
      }),
    );
    const schema = (await mainOf(result, 'deep')).routes.deep.output.schema;
    let depth = 1;
    for (let node = schema; node.properties; node = node.properties.next) depth++;
    expect(depth).toBe(MAX_OUTPUT_DEPTH);
  });

  it('an array query parameter the document sends other than comma-joined is a warning', async () => {
    const result = await run(
      {
        swagger: '2.0',
        info: { title: 'Old', version: '1' },
        host: 'old.example.com',
        paths: {
          '/q': {
            get: {
              parameters: [
                { name: 'csv', in: 'query', type: 'array', items: { type: 'string' } },
                { name: 'multi', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' },
                { name: 'pipes', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'pipes' },
              ],
              responses: ok,
            },
          },
        },
      },
      'arrays.json',
    );
    expect(result.report.summary.routes).toBe(1);
    expect(
      result.report.findings
        .filter((finding) => finding.kind === 'parameter')
        .map((finding) => finding.message.split("'")[1]),
    ).toEqual(['multi', 'pipes']);
  });

  it('PATCH, a Swagger 2.0 form upload and an XML body are findings', async () => {
    const result = await run(
      {
        swagger: '2.0',
        info: { title: 'Old', version: '1' },
        host: 'old.example.com',
        schemes: ['https'],
        paths: {
          '/p': {
            patch: { responses: ok },
            post: {
              consumes: ['multipart/form-data'],
              parameters: [{ name: 'file', in: 'formData', type: 'file', required: true }],
              responses: ok,
            },
          },
          '/xml': {
            put: {
              consumes: ['application/xml'],
              parameters: [
                {
                  name: 'doc',
                  in: 'body',
                  required: true,
                  schema: { type: 'object', properties: { a: { type: 'string' } } },
                },
              ],
              responses: ok,
            },
          },
        },
      },
      'swagger.json',
    );
    expect(result.report.findings.map((finding) => [finding.operation, finding.kind, finding.severity])).toEqual([
      ['POST /p', 'body', 'error'],
      ['PATCH /p', 'method', 'error'],
      ['PUT /xml', 'body', 'error'],
    ]);
  });
});

describe('references', () => {
  it('a $ref to another file is never read: the import stays inside the one document', async () => {
    writeFileSync(
      join(work, 'secret.json'),
      JSON.stringify({ type: 'string', enum: ['TOP-SECRET-VALUE'], example: 'TOP-SECRET-VALUE' }),
    );
    const result = await run(
      openapi({
        '/x': {
          get: {
            operationId: 'x',
            parameters: [{ name: 'q', in: 'query', required: true, schema: { $ref: './secret.json' } }],
            responses: ok,
          },
        },
      }),
      'external-ref.json',
    );
    const text = JSON.stringify(result);
    expect(text).not.toContain('TOP-SECRET-VALUE');
    // The unresolved reference reads as an untyped string parameter.
    expect((await mainOf(result, 'x')).routes.x.parameters[0].z).toEqual({ primitive: 'string()', options: [] });
  });
});
