// What depends on a file's spec version (SPEC-NOTES-v3-v4 §1, decision R11): the version
// pattern, the namespace pattern, and which key of `main` holds the tool map. Everything else
// reads the same in 2.x, 3.x and 4.x, so the rest of the checks see one tool map, whatever it
// is called in the file.

import { childPath, type FindingSink } from '../report/findings.js';
import { isRecord, type RawObject } from '../shared/raw.js';

export type Major = 2 | 3 | 4;
export type ToolMapKey = 'routes' | 'tools';

export interface ToolMap {
  /** The key the file wrote it under: finding paths keep the author's spelling. */
  key: ToolMapKey;
  entries: RawObject;
}

const VERSION = /^([234])\.\d+\.\d+$/;
/** A namespace every spec version accepts (4.x also takes digits and hyphens). */
export const PORTABLE_NAMESPACE = /^[a-z]+$/;
const NAMESPACE: Record<Major, RegExp> = { 2: PORTABLE_NAMESPACE, 3: PORTABLE_NAMESPACE, 4: /^[a-z][a-z0-9-]*$/ };
/** The primitives besides tools that 3.x and 4.x files declare in `main` (a file of them alone needs no tools). */
const UNSERVED_PRIMITIVES = ['resources', 'skills', 'prompts'] as const;

/** The major version of `main.version`, or null (VAL014) when it is none flowguard reads. */
export function readMajor(main: RawObject, sink: FindingSink): Major | null {
  if (typeof main.version !== 'string') return null; // absent or no string: the shape said so
  const major = VERSION.exec(main.version)?.[1];
  if (major) return Number(major) as Major;
  sink.add(
    'VAL014',
    'main.version',
    `version '${main.version}' is not 2.x.y, 3.x.y or 4.x.y`,
    "write the FlowMCP spec version the file follows, e.g. '4.0.0'",
  );
  return null;
}

/** VAL011 for a namespace its version does not allow (without a usable version, the widest pattern). */
export function checkNamespace(main: RawObject, major: Major | null, sink: FindingSink): void {
  if (typeof main.namespace !== 'string') return;
  const pattern = NAMESPACE[major ?? 4];
  if (pattern.test(main.namespace)) return;
  const rule =
    major === 4 || major === null
      ? 'a lowercase letter, then lowercase letters, digits and hyphens'
      : `lowercase letters only in ${major}.x (4.x also allows digits and hyphens)`;
  sink.add('VAL011', 'main.namespace', `namespace '${main.namespace}' breaks the pattern: ${rule}`, 'e.g. "coingecko"');
}

/**
 * The tool map under the key the version reads: `routes` in 2.x, `tools` in 4.x, `tools` in 3.x
 * with `routes` accepted as an alias (VAL007). Both keys, or the other version's key, is VAL008;
 * neither, or an empty map where the file declares nothing else, is VAL016. An empty map is
 * allowed from 3.x on when the file only declares resources, skills or prompts.
 */
export function readToolMap(main: RawObject, major: Major | null, sink: FindingSink): ToolMap | null {
  const present = (['routes', 'tools'] as const).filter((key) => key in main);
  if (present.length === 2) {
    sink.add(
      'VAL008',
      'main.routes',
      'the file has both `routes` and `tools`',
      'keep one tool map: `tools` from 3.x on, `routes` in 2.x',
    );
    return null;
  }
  const [key] = present;
  if (key === undefined) {
    const expected = major === 2 ? 'routes' : 'tools';
    sink.add(
      'VAL016',
      childPath('main', expected),
      `\`${expected}\` is required`,
      'declare the tools: { toolName: { method, path, description, parameters, tests } }',
    );
    return null;
  }
  if (major === 2 && key === 'tools') {
    sink.add(
      'VAL008',
      'main.tools',
      'a 2.x file holds its routes in `routes`',
      "write routes: { ... }, or declare version '3.0.0' or later for `tools`",
    );
    return null;
  }
  if (major === 4 && key === 'routes') {
    sink.add('VAL008', 'main.routes', 'a 4.x file holds its tools in `tools` only', 'rename `routes` to `tools`');
    return null;
  }
  if (major === 3 && key === 'routes')
    sink.add('VAL007', 'main.routes', '`routes` read as `tools` (the 3.x alias)', 'rename `routes` to `tools`');
  const entries = main[key];
  if (!isRecord(entries)) return null; // the shape said so (VAL016)
  if (Object.keys(entries).length === 0 && !(major !== 2 && declaresOtherPrimitives(main))) {
    sink.add('VAL016', childPath('main', key), `\`${key}\` is empty`, 'declare at least one tool');
  }
  return { key, entries };
}

/**
 * VAL028 for `resources` declared with content. The skill and prompt files `skills` and `prompts`
 * name are served as MCP prompts from where they lie (src/prompts/served.ts).
 */
export function reportUnservedPrimitives(main: RawObject, sink: FindingSink): void {
  for (const key of ['resources'] as const) {
    const declared = main[key];
    if (declared === undefined || (isRecord(declared) && Object.keys(declared).length === 0)) continue;
    const names = isRecord(declared) ? ` (${Object.keys(declared).join(', ')})` : '';
    sink.add(
      'VAL028',
      childPath('main', key),
      `${key}${names} declared but not served: flowguard serves tools only`,
      'the tools of this file are served as usual',
    );
  }
}

function declaresOtherPrimitives(main: RawObject): boolean {
  return UNSERVED_PRIMITIVES.some((key) => main[key] !== undefined);
}
