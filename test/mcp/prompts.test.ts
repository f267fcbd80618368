// Skills, prompts and group prompts served as MCP prompts (issue 17, point 4): the SDK client
// over a spawned `flowguard serve --transport stdio` and over Streamable HTTP lists and gets the
// prompts of a 3.x and a 4.x layout and of a group; arguments fill `{{input:x}}`, tools are named
// as served (or said to be unavailable), a missing or wrong argument is InvalidParams, and a
// skill file with code in it is refused by the scan like a schema would be.

import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ErrorCode,
  McpError,
  PromptListChangedNotificationSchema,
  type TextContent,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { startHttpServer } from '../../src/edge/http.js';
import { checkSchemaFile } from '../../src/project/check-file.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { waitFor } from '../support/wait.js';
import { BIN, connectHttp, connectStdio, ROOT, type CatalogUpstream } from './helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'prompts');
const V3 = join(FIXTURES, 'v3');
const V4 = join(FIXTURES, 'v4');
/** connectStdio only reads the upstream for its default arguments; these tests pass their own. */
const NO_UPSTREAM = {} as CatalogUpstream;

let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'flowguard-prompts-'));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const serve = (schemas: string, extra: string[] = []) => [
  BIN,
  'serve',
  '--schemas',
  schemas,
  '--project',
  project,
  '--transport',
  'stdio',
  ...extra,
];
const textOf = (result: { messages: Array<{ content: { type: string } }> }) =>
  result.messages.map((message) => (message.content as TextContent).text).join('\n');

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('a 3.x layout over stdio (skills listed in main.skills, beside the schema)', () => {
  it('lists the skill with its inputs as arguments, an enum with its values', async () => {
    const connection = await connectStdio(NO_UPSTREAM, serve(V3));
    try {
      const { prompts } = await connection.client.listPrompts();
      expect(prompts).toEqual([
        {
          name: 'shop_find-widget',
          description: 'Find a widget and its stock',
          arguments: [
            { name: 'widgetId', description: 'The widget id', required: true },
            { name: 'colour', description: 'A colour (one of: red, blue)', required: false },
          ],
        },
      ]);
    } finally {
      await connection.close();
    }
  });

  it('fills the inputs, names a served tool by its MCP name and says a hidden one is not offered', async () => {
    const connection = await connectStdio(NO_UPSTREAM, serve(V3));
    try {
      const served = (await connection.client.listTools()).tools.map((tool) => tool.name);
      expect(served).toEqual(['shop_getWidget']);
      const result = await connection.client.getPrompt({
        name: 'shop_find-widget',
        arguments: { widgetId: 'w-7', colour: 'blue' },
      });
      expect(result.description).toBe('Find a widget and its stock');
      expect(result.messages).toHaveLength(1);
      expect(result.messages[0]?.role).toBe('user');
      expect(textOf(result)).toBe(
        'Look up the widget w-7 with shop_getWidget.\nThen check the stock note with shop/tool/getStockNote (a tool this server does not offer).\nColour wanted: blue.',
      );
      const optionalLeftOut = await connection.client.getPrompt({
        name: 'shop_find-widget',
        arguments: { widgetId: 'w-7' },
      });
      expect(textOf(optionalLeftOut)).toContain('Colour wanted: (not given).');
    } finally {
      await connection.close();
    }
  });

  it('answers InvalidParams naming a missing required argument, a value outside the enum, and an unknown prompt', async () => {
    const connection = await connectStdio(NO_UPSTREAM, serve(V3));
    try {
      const missing = await rejection(
        connection.client.getPrompt({ name: 'shop_find-widget', arguments: { colour: 'red' } }),
      );
      expect(missing.code).toBe(ErrorCode.InvalidParams);
      expect(missing.message).toContain("needs the argument 'widgetId'");
      const outside = await rejection(
        connection.client.getPrompt({ name: 'shop_find-widget', arguments: { widgetId: 'w', colour: 'green' } }),
      );
      expect(outside.code).toBe(ErrorCode.InvalidParams);
      expect(outside.message).toContain("argument 'colour' must be one of red, blue");
      const unknown = await rejection(connection.client.getPrompt({ name: 'nope' }));
      expect(unknown.code).toBe(ErrorCode.InvalidParams);
      expect(unknown.message).toContain('Unknown prompt: nope');
    } finally {
      await connection.close();
    }
  });
});

describe('a 4.x layout over Streamable HTTP (providers/<ns>/skills and prompts)', () => {
  it('serves the skill and the prompt file, whose placeholders are its arguments', async () => {
    const catalog = await Catalog.load({ schemas: V4, project, env: {} });
    const server = await startHttpServer(catalog, { port: 0, log: () => undefined });
    const connection = await connectHttp(server.url);
    try {
      const { prompts } = await connection.client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(['weather_packing-list', 'weather_plan-trip']);
      expect(prompts[0]?.arguments?.map((argument) => [argument.name, argument.required])).toEqual([
        ['city', true],
        ['days', true],
      ]);
      const trip = await connection.client.getPrompt({ name: 'weather_plan-trip', arguments: { city: 'Lisbon' } });
      expect(textOf(trip)).toBe('Get the forecast for Lisbon with weather_getForecast and plan the day.');
      const packing = await connection.client.getPrompt({
        name: 'weather_packing-list',
        arguments: { city: 'Oslo', days: '3' },
      });
      expect(textOf(packing)).toBe('Use weather_getForecast for Oslo and list what to pack for 3 days.');
      const missing = await rejection(
        connection.client.getPrompt({ name: 'weather_packing-list', arguments: { city: 'Oslo' } }),
      );
      expect(missing.code).toBe(ErrorCode.InvalidParams);
      expect(missing.message).toContain("'days'");
    } finally {
      await connection.close();
      await server.close();
      await catalog.close();
    }
  });
});

describe('a skill that uses one argument many times (promise 8)', () => {
  // The file is the schema author's, the argument the client's: 130 uses of {{input:city}} made
  // one prompts/get of a 3.9 MB city a 507 MB answer (2 GB resident, 6 s; four at once 5 GB, 40 s
  // each). What the arguments fill in is bounded over the whole answer, each use counted.
  it('is refused past the bound with InvalidParams naming it; within it, answered; the server goes on', async () => {
    const schemas = mkdtempSync(join(tmpdir(), 'flowguard-prompt-fill-'));
    cpSync(V4, schemas, { recursive: true });
    const skill = join(schemas, 'providers', 'weather', 'skills', 'plan-trip.mjs');
    writeFileSync(skill, readFileSync(skill, 'utf8').replace('{{input:city}}', '{{input:city}} '.repeat(130)));
    const catalog = await Catalog.load({ schemas, project, env: {} });
    const server = await startHttpServer(catalog, { port: 0, log: () => undefined });
    const connection = await connectHttp(server.url);
    try {
      const city = 'c'.repeat(10_000);
      const refused = await rejection(connection.client.getPrompt({ name: 'weather_plan-trip', arguments: { city } }));
      expect(refused.code).toBe(ErrorCode.InvalidParams);
      expect(refused.message).toContain('1048576 characters');
      const answered = await connection.client.getPrompt({
        name: 'weather_plan-trip',
        arguments: { city: 'c'.repeat(8_000) },
      });
      expect(textOf(answered).split('c'.repeat(8_000)).length - 1).toBe(130);
      expect((await connection.client.listPrompts()).prompts).toHaveLength(2);
    } finally {
      await connection.close();
      await server.close();
      await catalog.close();
      rmSync(schemas, { recursive: true, force: true });
    }
  });
});

describe("serve --group: the group prompts and the skills of its tools' namespaces", () => {
  it("serves the group's Markdown prompt by its key, leaves out the skills of other namespaces, and says why a group prompt is not served", async () => {
    const groupProject = mkdtempSync(join(tmpdir(), 'flowguard-prompts-group-'));
    try {
      const schemas = FIXTURES; // v3 and v4 together: the group takes only shop's tool
      const created = spawnSync(
        process.execPath,
        [
          BIN,
          'group',
          'create',
          'tour',
          '--tools',
          'shop/shop.mjs::getWidget',
          '--schemas',
          schemas,
          '--project',
          groupProject,
        ],
        { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
      );
      expect(created.status, created.stdout + created.stderr).toBe(0);
      mkdirSync(join(groupProject, '.flowmcp', 'prompts'));
      for (const name of ['shopping-tour.md', 'no-title.md'])
        copyFileSync(
          join(FIXTURES, 'project', '.flowmcp', 'prompts', name),
          join(groupProject, '.flowmcp', 'prompts', name),
        );
      const groupsFile = join(groupProject, '.flowmcp', 'groups.json');
      const groups = JSON.parse(readFileSync(groupsFile, 'utf8')) as { groups: { tour: Record<string, unknown> } };
      groups.groups.tour.prompts = {
        'shopping-tour': {
          title: 'Shopping tour',
          description: 'Walk through the shop',
          file: '.flowmcp/prompts/shopping-tour.md',
        },
        'no-title': {
          title: 'No title',
          description: 'A file without its title line',
          file: '.flowmcp/prompts/no-title.md',
        },
        gone: { title: 'Gone', description: 'A file that is not there', file: '.flowmcp/prompts/gone.md' },
        outside: { title: 'Outside', description: 'A file outside the project', file: '../outside.md' },
      };
      writeFileSync(groupsFile, JSON.stringify(groups, null, 2));

      const connection = await connectStdio(NO_UPSTREAM, [
        BIN,
        'serve',
        '--schemas',
        schemas,
        '--project',
        groupProject,
        '--transport',
        'stdio',
        '--group',
        'tour',
      ]);
      try {
        const { prompts } = await connection.client.listPrompts();
        expect(prompts.map((prompt) => prompt.name)).toEqual(['shopping-tour', 'shop_find-widget']);
        expect(prompts[0]).toEqual({
          name: 'shopping-tour',
          title: 'Shopping tour',
          description: 'Walk through the shop',
          arguments: [
            { name: 'widgetId', description: 'the widget to look at', required: true },
            { name: 'budget', description: 'how much to spend', required: false },
          ],
        });
        const tour = textOf(
          await connection.client.getPrompt({ name: 'shopping-tour', arguments: { widgetId: 'w-3', budget: '20' } }),
        );
        expect(tour).toContain('Call shop_getWidget for w-3; spend at most 20.');
        expect(tour.startsWith('# Shopping tour')).toBe(true);
        const stderr = connection.stderr();
        expect(stderr).toMatch(/PRM003 error .*no-title\.md.*`# Title` line/);
        expect(stderr).toMatch(/PRM002 error .*prompt 'gone' of group tour: cannot read the file/);
        expect(stderr).toMatch(/PRM002 error .*'\.\.\/outside\.md' is outside the project folder/);
      } finally {
        await connection.close();
      }
    } finally {
      rmSync(groupProject, { recursive: true, force: true });
    }
  });
});

describe('a skill file with code in it', () => {
  const options = { allowedLibraries: effectiveAllowlist([]) };

  it.each([
    [
      'a function as a field',
      "export const skill = { name: 'x', description: 'd', content: (() => 'text')() }",
      'a call is not literal data',
    ],
    [
      'a call at the top level',
      "const content = 'Hello'\nconsole.log(content)\nexport const skill = { name: 'x', description: 'd', content }",
      'top-level ExpressionStatement would run at import time',
    ],
    [
      'a const that is a call',
      "const content = String(1)\nexport const skill = { name: 'x', description: 'd', content }",
      'a call is not literal data',
    ],
  ])('is refused by the scan (SEC022), and nothing of it is served: %s', async (_what, source, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'flowguard-prompts-code-'));
    try {
      const file = join(dir, 'skill.mjs');
      writeFileSync(file, source);
      const check = checkSchemaFile(file, options);
      expect(check.findings.filter((f) => f.code === 'SEC022').map((f) => f.message)).toContain(message);
      expect(check.prompt).toBeUndefined();
      const catalog = await Catalog.load({ schemas: dir, project, env: {} });
      try {
        expect(catalog.prompts).toEqual([]);
      } finally {
        await catalog.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a forbidden global inside the skill's value with the schema's own code", () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowguard-prompts-code-'));
    try {
      const file = join(dir, 'skill.mjs');
      writeFileSync(file, "export const skill = { name: 'x', description: 'd', content: process.env.SECRET }");
      const codes = checkSchemaFile(file, options).findings.map((f) => f.code);
      expect(codes).toContain('SEC006');
      expect(codes).toContain('SEC022');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reloads and the check cache', () => {
  it('serve --watch tells the client when a reload changed the prompts (notifications/prompts/list_changed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowguard-prompts-watch-'));
    try {
      cpSync(V4, join(dir, 'schemas'), { recursive: true });
      const connection = await connectStdio(NO_UPSTREAM, [
        BIN,
        'serve',
        '--schemas',
        join(dir, 'schemas'),
        '--project',
        dir,
        '--transport',
        'stdio',
        '--watch',
      ]);
      try {
        let told = 0;
        connection.client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
          told += 1;
        });
        expect((await connection.client.listPrompts()).prompts).toHaveLength(2);
        const skills = join(dir, 'schemas', 'providers', 'weather', 'skills');
        writeFileSync(
          join(skills, 'rain-check.mjs'),
          "export const skill = { name: 'rain-check', description: 'Will it rain?', content: 'Ask {{tool:weather/getForecast}}.' }\n",
        );
        expect(await waitFor(() => told > 0, 20_000), connection.stderr()).toBe(true);
        expect((await connection.client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain(
          'weather_rain-check',
        );
      } finally {
        await connection.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  it('a check cache written before checks carried prompts is not used (the skill is served)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowguard-prompts-cache-'));
    try {
      const first = await Catalog.load({ schemas: V4, project: dir, env: {}, cache: true });
      expect(first.prompts).toHaveLength(2);
      await first.close();
      // The cache as an older flowguard wrote it: format 2, skill checks without their prompt.
      const cacheFile = join(dir, '.flowmcp', 'cache', 'checks.json');
      const cache = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
        format: number;
        entries: Record<string, { check: { prompt?: unknown } }>;
      };
      cache.format = 2;
      for (const entry of Object.values(cache.entries)) delete entry.check.prompt;
      writeFileSync(cacheFile, JSON.stringify(cache));
      const second = await Catalog.load({ schemas: V4, project: dir, env: {}, cache: true });
      try {
        expect(second.prompts.map((prompt) => prompt.name)).toEqual(['weather_packing-list', 'weather_plan-trip']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
