// `flowguard init [dir]`: a starting point for a new schema author. Writes one schema file with
// one route, one parameter of each common kind and tests, which validates with no error and
// dry-runs as it stands (`flowguard call <ns>_getThing --arg id=1 --dry-run`). It never
// overwrites a file unless told to (`--force`), and writes no `.flowmcp/config.json`: a project
// without one runs on the defaults, and an existing one is the operator's.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { PORTABLE_NAMESPACE } from '../schema/version.js';
import { installedFile } from '../shared/version.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

interface InitFlags {
  namespace: string;
  root: string;
  force?: boolean;
}

/** 2.x namespaces: lowercase letters only (VAL011), so the scaffold's pattern is the strictest one. */

export function registerInit(program: Command): void {
  program
    .command('init')
    .description(
      'write a starting schema (one route, its tests) into DIR/schemas/<namespace>/; never overwrites without --force',
    )
    .argument('[dir]', 'project folder (created if missing)', '.')
    .option('--namespace <name>', 'the API provider id: lowercase letters only', 'example')
    .option('--root <url>', 'the base URL of the API, https', 'https://api.example.com')
    .option('--force', 'replace the schema file if it exists')
    .action((dir: string, flags: InitFlags) => runInit(dir, flags));
}

function runInit(dir: string, flags: InitFlags): void {
  const { namespace, root } = flags;
  if (!PORTABLE_NAMESPACE.test(namespace))
    throw new UsageError(
      `--namespace ${JSON.stringify(namespace)}: use lowercase letters only, e.g. --namespace openmeteo`,
    );
  if (!isHttpsRoot(root))
    throw new UsageError(
      `--root ${JSON.stringify(root)}: use an https URL without query, fragment or trailing slash (and no quote, backslash or white space), e.g. --root https://api.example.com/v1`,
    );
  const folder = join(dir, 'schemas', namespace);
  const file = join(folder, 'things.mjs');
  const shown = relative(cli().cwd, file) || file;
  if (existsSync(file) && !flags.force) {
    cli().stderr.write(`${shown} already exists; nothing was written (--force replaces it)\n`);
    cli().exitCode = 1;
    return;
  }
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(file, scaffold(namespace, root));
  } catch (error) {
    // The folder or the disk refused the path the command was given: a usage error, as `import --out`'s.
    throw new UsageError(`${shown} cannot be written: ${(error as Error).message}`);
  }
  const project = relative(cli().cwd, dir);
  cli().stdout.write(
    [
      `wrote ${shown}`,
      'next:',
      ...(project ? [`  cd ${project}`] : []),
      '  flowguard validate',
      `  flowguard call ${namespace}_getThing --arg id=1 --dry-run`,
      '  flowguard serve',
      // The guide ships in the package: a path the author can open, in a checkout or an install.
      `the authors' guide explains every field: ${installedFile('docs', 'authors', 'README.md')}`,
      '',
    ].join('\n'),
  );
}

function isHttpsRoot(text: string): boolean {
  try {
    const url = new URL(text);
    // The scaffold writes the text in single quotes: a quote, a backslash or a line break (which
    // URL parsing drops) would end or break that string.
    return url.protocol === 'https:' && !url.search && !url.hash && !text.endsWith('/') && !/['\\\s]/.test(text);
  } catch {
    // new URL throws only on a malformed URL: not an https root.
    return false;
  }
}

/** PascalCase of the namespace, for `name` (VAL019). */
function pascalCase(namespace: string): string {
  return `${namespace.charAt(0).toUpperCase()}${namespace.slice(1)}Api`;
}

/** The schema file: each field commented once, values an author replaces with the API's own. */
function scaffold(namespace: string, root: string): string {
  return `// A FlowMCP schema: the API described as data. Each route below becomes one MCP tool,
// named ${namespace}_<route>. Replace the example values with your API's; flowguard validate
// says what is missing or wrong, with a hint for each finding.
export const main = {
    // The provider's id: lowercase letters. It starts every tool name.
    namespace: '${namespace}',
    name: '${pascalCase(namespace)}',
    description: 'Looks up things in the ${namespace} API.',
    // The FlowMCP spec version this file follows.
    version: '2.0.0',
    docs: ['${root}'],
    tags: ['example'],
    // Every route's path is appended to root. https only, no trailing slash.
    root: '${root}',
    routes: {
        getThing: {
            method: 'GET',
            // {{id}} is filled by the insert parameter with key 'id'.
            path: '/things/{{id}}',
            description: 'One thing by its id, with its name and when it was last changed.',
            parameters: [
                // The caller's input ('{{USER_PARAM}}'), put into the path, a text of at least one character.
                { position: { key: 'id', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(1)'] } },
                // An optional choice sent in the query string (?lang=en when left out).
                { position: { key: 'lang', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(en,de,fr)', options: ['optional()', 'default(en)'] } }
            ],
            // What the API answers; clients and flowguard test check answers against it.
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        id: { type: 'string' },
                        name: { type: 'string' },
                        updatedAt: { type: 'string', nullable: true }
                    }
                }
            },
            // At least one test per route: real arguments that work against the live API.
            tests: [
                { _description: 'a thing that exists', id: '1' },
                { _description: 'the same thing in German', id: '1', lang: 'de' }
            ]
        }
    }
};
`;
}
