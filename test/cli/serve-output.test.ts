// What a log shipper reads from `flowguard serve --log-format json`: every line the server prints on
// stderr, at start, on reloads and when it stops, over HTTP and over stdio, must be one JSON object
// of the logger (level, time, msg), with the summary as entries and nothing said twice. A real
// server process; a reload caused by rewriting a schema file on disk.

import { afterAll, describe, expect, it } from 'vitest';
import { makeProject, shopSchema, type Project } from '../reload/helpers.js';
import { startFlowguard } from '../kit/spawn.js';

const ITEM = { name: 'getItem', path: '/items' };
const MORE = { name: 'getMore', path: '/more' };

const projects: Project[] = [];
afterAll(() => projects.forEach((project) => project.remove()));

/** A project of one good schema file and one that cannot be loaded. */
function project(): Project {
  const made = makeProject({ 'items.mjs': shopSchema([ITEM]), 'broken.mjs': shopSchema([MORE], { broken: true }) });
  projects.push(made);
  return made;
}

/** Every line of `stderr` parsed, failing on the first that is not one JSON log entry. */
function entries(stderr: string): Array<Record<string, unknown>> {
  const lines = stderr.split('\n').filter((line) => line !== '');
  return lines.map((line) => {
    let entry: unknown;
    expect(() => (entry = JSON.parse(line)), line).not.toThrow();
    expect(entry, line).toMatchObject({ level: expect.any(Number), time: expect.any(Number), msg: expect.any(String) });
    return entry as Record<string, unknown>;
  });
}

const messages = (logged: Array<Record<string, unknown>>) => logged.map((entry) => entry.msg);

describe('serve --log-format json', () => {
  it('over HTTP with --watch: the start, two reloads (one with errors) and the stop, each line one log entry', async () => {
    const made = project();
    const server = startFlowguard(
      [
        'serve',
        '--transport',
        'http',
        '--port',
        '0',
        '--watch',
        '--log-format',
        'json',
        '--schemas',
        made.schemas,
        '--project',
        made.dir,
      ],
      { cwd: made.dir },
    );
    expect(await server.waitForStderr('"msg":"watching for changes"'), server.stderr()).toBe(true);
    expect(await server.waitForStderr('"msg":"serving"'), server.stderr()).toBe(true);
    made.write('items.mjs', shopSchema([ITEM, MORE]));
    expect(await server.waitForStderr('"msg":"reloaded"'), server.stderr()).toBe(true);
    made.write('items.mjs', shopSchema([ITEM], { broken: true }));
    expect(await server.waitForStderr('the version served before stays served'), server.stderr()).toBe(true);
    expect(await server.stop()).toBe(0);

    const logged = entries(server.stderr());
    expect(messages(logged)).toEqual(
      expect.arrayContaining([
        'file not served',
        'catalog loaded',
        'tools listed',
        'watching for changes',
        'serving',
        'reloaded',
        'shutting down',
      ]),
    );
    const [loaded] = logged.filter((entry) => entry.msg === 'catalog loaded');
    expect(loaded).toMatchObject({ level: 30, schemaFiles: 2, loaded: 1, rejected: 1, served: 1, hidden: 0 });
    expect(logged.find((entry) => entry.msg === 'serving')).toMatchObject({
      level: 30,
      transport: 'http',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
      tools: 1,
      auth: 'none',
    });
    expect(logged.find((entry) => entry.msg === 'file not served')).toMatchObject({ level: 40 });
    expect(logged.find((entry) => entry.msg === 'shutting down')).toMatchObject({ level: 30, reason: 'SIGTERM' });
    // Said once each: the file not served is one entry, not a summary line beside it.
    expect(messages(logged).filter((msg) => msg === 'file not served')).toHaveLength(1);
  });

  it('over stdio: stderr is log entries only, from the start to the end of stdin', async () => {
    const made = project();
    const server = startFlowguard(['serve', '--log-format', 'json', '--schemas', made.schemas, '--project', made.dir], {
      cwd: made.dir,
    });
    expect(await server.exited).toBe(0);
    const logged = entries(server.stderr());
    expect(logged.find((entry) => entry.msg === 'serving')).toMatchObject({ transport: 'stdio', tools: 1 });
    expect(logged.at(-1)).toMatchObject({ msg: 'shutting down', reason: 'stdin closed' });
    expect(server.stdout()).toBe('');
  });

  it('text stays the default: the summary for a person, then the same server', async () => {
    const made = project();
    const server = startFlowguard(['serve', '--schemas', made.schemas, '--project', made.dir], { cwd: made.dir });
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('flowguard: 2 schema files: 1 loaded, 1 rejected; 1 tool served, 0 hidden');
    expect(server.stderr()).toContain('flowguard: serving 1 tool over stdio');
  });

  it('refuses a format it does not know, naming the two', async () => {
    const made = project();
    const server = startFlowguard(['serve', '--log-format', 'yaml', '--schemas', made.schemas, '--project', made.dir], {
      cwd: made.dir,
    });
    expect(await server.exited).toBe(2);
    expect(server.stderr()).toContain("--log-format must be one of text, json, not 'yaml'");
  });
});
