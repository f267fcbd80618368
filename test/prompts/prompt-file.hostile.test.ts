// Hostile skill and prompt files (promise 8: nothing sent from outside crashes the server; a file
// is size-checked before it is read): one past limits.maxFileBytes, one nesting arrays 20,000 deep,
// one whose name is a path (`../../etc/passwd`) and whose placeholders name a key, a path and
// Object's own properties. Each is refused with a finding, never a crash, and the schema beside
// it is served either way. Real parts: files on disk in the 4.x layout, loaded into a real
// catalog (src/prompts/prompt-file.ts reads each file the check hands it).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPromptFile } from '../../src/prompts/prompt-file.js';
import { FindingSink } from '../../src/report/findings.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { parseModule } from '../../src/scan/parse.js';

const SCHEMA = `export const main = {
  namespace: 'weather', name: 'Weather', description: 'Forecasts.', version: '4.0.0',
  root: 'https://api.weather.test',
  tools: {
    getForecast: { method: 'GET', path: '/forecast', description: 'A forecast.', parameters: [],
      tests: [{ _description: 'today' }] }
  }
};
`;

const skill = (name: string, extra: string) => `export const skill = {
    name: '${name}',
    version: 'flowmcp-skill/1.0.0',
    description: 'A skill',
    input: [],
    ${extra}
}
`;

let folder: string;
let catalog: Catalog;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'flowguard-hostile-prompts-'));
  const provider = join(folder, 'schemas', 'providers', 'weather');
  mkdirSync(join(provider, 'skills'), { recursive: true });
  writeFileSync(join(provider, 'forecast.mjs'), SCHEMA);
  // 3 MB of content: past the 2 MB default of limits.maxFileBytes.
  writeFileSync(join(provider, 'skills', 'huge.mjs'), skill('huge', `content: '${'x'.repeat(3 * 1024 * 1024)}'`));
  const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  writeFileSync(join(provider, 'skills', 'deep.mjs'), skill('deep', `content: 'deep', references: ${deep}`));
  writeFileSync(
    join(provider, 'skills', 'paths.mjs'),
    skill(
      '../../etc/passwd',
      `content: 'Key {{WEATHER_KEY}}, {{input:__proto__}}, {{input:constructor}}, {{tool:../../etc/passwd}}, {{tool:weather/getForecast}}.'`,
    ),
  );
  mkdirSync(join(folder, 'project'));
  catalog = await Catalog.load({
    schemas: join(folder, 'schemas'),
    project: join(folder, 'project'),
    env: {},
  });
}, 60_000);
afterAll(async () => {
  await catalog?.close();
  rmSync(folder, { recursive: true, force: true });
});

const reportOf = (name: string) => catalog.schemaReports.find((report) => report.file.endsWith(`${name}.mjs`));

describe('hostile skill files', () => {
  it('serves the schema beside them whatever they hold', () => {
    expect(catalog.tools.map((tool) => tool.name)).toEqual(['weather_getForecast']);
  });

  it('refuses a file past limits.maxFileBytes before reading it (SEC020), serving no prompt of it', () => {
    expect(reportOf('huge')?.findings.map((finding) => finding.code)).toContain('SEC020');
    expect(catalog.prompts.map((prompt) => prompt.name)).not.toContain('weather_huge');
  });

  it('refuses a file nesting 20,000 deep with a finding, not an overflowed stack', () => {
    expect(reportOf('deep')?.findings.length).toBeGreaterThan(0);
    expect(catalog.prompts.map((prompt) => prompt.name)).not.toContain('weather_deep');
  });

  it('refuses a name that is a path (PRM001) and placeholders of inputs it does not declare (PRM006)', () => {
    const codes = reportOf('paths')?.findings.map((finding) => `${finding.code} ${finding.message}`) ?? [];
    expect(codes).toContain("PRM001 name '../../etc/passwd' does not match ^[a-z][a-z0-9_-]{0,63}$");
    expect(codes).toContain('PRM006 {{input:__proto__}} names no input');
    expect(codes).toContain('PRM006 {{input:constructor}} names no input');
    expect(catalog.prompts).toEqual([]);
  });

  it('reads a skill as data: a getter, a call or a spread in it is code (SEC022), and nothing of it is served', () => {
    for (const value of ['{ get content() { return 1; } }', "String('x')", "{ ...{ content: 'x' } }"]) {
      const text = `export const skill = ${value};`;
      const sink = new FindingSink('skill.mjs', text);
      const program = parseModule(text, sink);
      expect(program, value).not.toBeNull();
      expect(readPromptFile(program as NonNullable<typeof program>, 'skill', sink), value).toBeNull();
      expect(
        sink.findings.map((finding) => finding.code),
        value,
      ).toContain('SEC022');
    }
  });
});
