// The shape of the code (issue 15, issue 26, docs/internals/architecture.md): the folders ("rooms")
// of src/ sit in the layer order that document writes down and import only rooms below their own,
// no room but the CLI and the composition root imports from more than 8 others, and no
// hand-written module grows past 400 lines. Imports are read with
// TypeScript's own pre-processor, so `import type`, `export ... from`, side-effect imports and
// dynamic `import()` (in code or in a type) all count, and text in strings or comments does not.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_LINES = 400;
/** Files of src/ itself (only index.ts, the public API) form a room of their own. */
const ROOT_ROOM = '(src root)';
/** How many other rooms one room may import from: more means it does the job of several. */
const MAX_ROOM_IMPORTS = 8;
/** The rooms that put the others together: the commands, and the runtime that composes a catalog and its server. */
const COMPOSING_ROOMS: ReadonlySet<string> = new Set(['cli', 'runtime']);
const ARCHITECTURE_DOC = join(ROOT, 'docs', 'internals', 'architecture.md');

/** One import that crosses rooms: which file imports which. */
interface RoomEdge {
  from: string;
  to: string;
}

/** Room → room → the imports that make that edge (first one kept as the example). */
type RoomGraph = Map<string, Map<string, RoomEdge>>;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : tsFiles(path);
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
  });
}

function roomOf(srcDir: string, file: string): string {
  const parts = relative(srcDir, file).split(sep);
  return parts.length > 1 ? (parts[0] as string) : ROOT_ROOM;
}

/** Every relative import of a module: static, type-only, re-exports, side-effect and dynamic. */
function relativeImports(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((file) => file.fileName)
    .filter((name) => name.startsWith('.'));
}

/** The graph of rooms of a source folder, from the relative imports of its .ts files. */
function roomGraph(srcDir: string): RoomGraph {
  const graph: RoomGraph = new Map();
  for (const file of tsFiles(srcDir)) {
    const from = roomOf(srcDir, file);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), specifier);
      if (relative(srcDir, target).startsWith('..')) continue;
      const to = roomOf(srcDir, target);
      if (to === from || graph.get(from)?.has(to)) continue;
      graph.get(from)?.set(to, { from: relative(srcDir, file), to: relative(srcDir, target).replace(/\.js$/, '.ts') });
    }
  }
  return graph;
}

/**
 * The cycles of a room graph: for every strongly connected component of more than one room
 * (Tarjan), one closed path through it, each step with the import that makes it.
 */
function findCycles(graph: RoomGraph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const rooms = new Set([...graph.keys(), ...[...graph.values()].flatMap((edges) => [...edges.keys()])]);
  const connect = (room: string): void => {
    index.set(room, next);
    low.set(room, next);
    next += 1;
    stack.push(room);
    onStack.add(room);
    for (const to of graph.get(room)?.keys() ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(room, Math.min(low.get(room) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(room, Math.min(low.get(room) as number, index.get(to) as number));
      }
    }
    if (low.get(room) !== index.get(room)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === room) break;
    }
    if (component.length > 1) components.push(component.sort());
  };
  for (const room of [...rooms].sort()) if (!index.has(room)) connect(room);
  return components.map((component) => describeCycle(graph, component));
}

/** The rooms of a component, and a shortest closed path from its first room back to itself. */
function describeCycle(graph: RoomGraph, component: string[]): string {
  const inside = new Set(component);
  const start = component[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const room = queue.shift() as string;
    for (const to of graph.get(room)?.keys() ?? []) {
      if (!inside.has(to) || cameFrom.has(to)) continue;
      cameFrom.set(to, room);
      if (to === start) queue.length = 0;
      else queue.push(to);
    }
  }
  const between: string[] = [];
  for (let room = cameFrom.get(start); room !== undefined && room !== start; room = cameFrom.get(room))
    between.unshift(room);
  const path = [start, ...between, start];
  const steps = path.slice(1).map((to, i) => {
    const edge = graph.get(path[i] as string)?.get(to) as RoomEdge;
    return `${path[i]} -> ${to} (${edge.from} imports ${edge.to})`;
  });
  return `rooms ${component.join(', ')} import each other; one cycle: ${steps.join('; ')}`;
}

/**
 * The layer order of the rooms as docs/internals/architecture.md writes it: the rows of its
 * table of rooms, bottom layer first, each naming its room as `src/<room>/` (or `src/index.ts`).
 */
function documentedLayers(text: string): string[] {
  return [...text.matchAll(/^\| `src\/(?:([a-z][a-z0-9-]*)\/|index\.ts)` \|/gm)].map((match) => match[1] ?? ROOT_ROOM);
}

/**
 * Every import that goes against the layer order (a room may import only rooms below it), and
 * every room the order leaves out or names twice.
 */
function layerViolations(graph: RoomGraph, layers: readonly string[]): string[] {
  const level = new Map(layers.map((room, index) => [room, index]));
  const problems = layers
    .filter((room, index) => layers.indexOf(room) !== index)
    .map((room) => `${room} is named twice in the layer order`);
  const rooms = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((edges) => [...edges.keys()])])].sort();
  for (const room of rooms) if (!level.has(room)) problems.push(`${room} is missing from the layer order`);
  for (const [from, edges] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [to, edge] of edges) {
      if ((level.get(to) ?? -1) >= (level.get(from) ?? Infinity))
        problems.push(`${from} imports ${to}, which is not below it (${edge.from} imports ${edge.to})`);
    }
  }
  return problems;
}

/** The rooms (composing ones aside) that import from more than `max` other rooms, with those rooms. */
function overreachingRooms(
  graph: RoomGraph,
  max = MAX_ROOM_IMPORTS,
  composing: ReadonlySet<string> = COMPOSING_ROOMS,
): string[] {
  return [...graph]
    .filter(([room, edges]) => !composing.has(room) && edges.size > max)
    .map(([room, edges]) => `${room} imports from ${edges.size} rooms: ${[...edges.keys()].sort().join(', ')}`)
    .sort();
}

/** Hand-written modules longer than the limit, with their line counts. */
function oversizedModules(dirs: readonly string[], maxLines = MAX_LINES): string[] {
  return dirs
    .flatMap((dir) => tsFiles(dir))
    .filter((file) => !file.endsWith('.generated.ts'))
    .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > maxLines)
    .map(({ file, lines }) => `${relative(ROOT, file)}: ${lines} lines`);
}

function graphOf(edges: Record<string, string[]>): RoomGraph {
  return new Map(
    Object.entries(edges).map(([from, tos]) => [
      from,
      new Map(tos.map((to) => [to, { from: `${from}/a.ts`, to: `${to}/b.ts` }])),
    ]),
  );
}

describe('the rooms of src/', () => {
  it('import each other in one direction only (no cycle between folders)', () => {
    expect(findCycles(roomGraph(join(ROOT, 'src')))).toEqual([]);
  });

  it('sit in the layer order docs/internals/architecture.md writes down, each importing only rooms below it', () => {
    const layers = documentedLayers(readFileSync(ARCHITECTURE_DOC, 'utf8'));
    expect(layers.length).toBeGreaterThan(10);
    expect(layerViolations(roomGraph(join(ROOT, 'src')), layers)).toEqual([]);
  });

  it(`import from at most ${MAX_ROOM_IMPORTS} other rooms each, but the CLI and the runtime that composes the rest`, () => {
    expect(overreachingRooms(roomGraph(join(ROOT, 'src')))).toEqual([]);
  });

  it('the layer check names an import that goes up, a room the order leaves out and one named twice', () => {
    const graph = graphOf({ top: ['middle', 'bottom'], middle: ['bottom'], bottom: ['middle'], stray: [] });
    expect(layerViolations(graph, ['bottom', 'middle', 'top', 'top'])).toEqual([
      'top is named twice in the layer order',
      'stray is missing from the layer order',
      'bottom imports middle, which is not below it (bottom/a.ts imports middle/b.ts)',
    ]);
    expect(
      layerViolations(graphOf({ top: ['middle', 'bottom'], middle: ['bottom'], bottom: [] }), [
        'bottom',
        'middle',
        'top',
      ]),
    ).toEqual([]);
    const doc = [
      '| room | job |',
      '| --- | --- |',
      '| `src/shared/` | x |',
      '| `src/cache/` | y |',
      '| `src/index.ts` | z |',
      'text naming `src/other/`',
    ].join('\n');
    expect(documentedLayers(doc)).toEqual(['shared', 'cache', ROOT_ROOM]);
  });

  it('the fan-out check names a room that imports from too many others, and lets the composing rooms do so', () => {
    const graph = graphOf({ hub: ['a', 'b', 'c'], cli: ['a', 'b', 'c', 'hub'], leaf: ['a'] });
    expect(overreachingRooms(graph, 2)).toEqual(['hub imports from 3 rooms: a, b, c']);
    expect(overreachingRooms(graph, 2, new Set(['cli', 'hub']))).toEqual([]);
  });

  it('leave only the public API (index.ts) at the root of src/', () => {
    const rootFiles = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
    expect(rootFiles).toEqual(['index.ts']);
  });

  it('the cycle check finds a cycle, and names its rooms and the imports that close it', () => {
    const cyclic = graphOf({
      catalog: ['lists', 'report'],
      lists: ['schema', 'report'],
      schema: ['lists'],
      report: [],
      cli: ['catalog'],
    });
    expect(findCycles(cyclic)).toEqual([
      'rooms lists, schema import each other; one cycle: lists -> schema (lists/a.ts imports schema/b.ts); schema -> lists (schema/a.ts imports lists/b.ts)',
    ]);
    const longer = graphOf({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] });
    expect(findCycles(longer)).toEqual([
      'rooms a, b, c import each other; one cycle: a -> b (a/a.ts imports b/b.ts); b -> c (b/a.ts imports c/b.ts); c -> a (c/a.ts imports a/b.ts)',
    ]);
    expect(findCycles(graphOf({ top: ['middle', 'bottom'], middle: ['bottom'], bottom: [] }))).toEqual([]);
  });

  it('reads every kind of relative import, and none written in strings or comments', () => {
    const text = [
      "import type { A } from './a.js';",
      "// this comment names '../comment.js'",
      "import {\n  b,\n} from '../b.js';",
      "export * from './c.js';",
      "export { d } from './d.js';",
      "import './e.js';",
      "const f = await import('./f.js');",
      "type G = import('./g.js').G;",
      'const h = "import x from \'./h.js\'";',
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(relativeImports(text)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js', './f.js', './g.js']);
  });
});

describe('module size', () => {
  it(`no hand-written module under src/, bench/ or scripts/ is over ${MAX_LINES} lines`, () => {
    expect(oversizedModules(['src', 'bench', 'scripts'].map((dir) => join(ROOT, dir)))).toEqual([]);
  });

  it('the size check names a module over the limit and skips generated code', () => {
    const found = oversizedModules([join(ROOT, 'src', 'schema')], 100);
    expect(found.some((line) => line.startsWith(join('src', 'schema', 'params.ts')))).toBe(true);
    expect(found.some((line) => line.includes('.generated.ts'))).toBe(false);
  });
});
