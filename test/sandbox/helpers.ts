// Shared parts of the adversarial suite (issue 3): the canaries that prove from outside that an
// attack had no effect, snapshots of the host's built-ins, and reading the hostile fixtures.
//
// Every hostile fixture names its targets with placeholders (__CANARY_FILE__, __CANARY_DIR__,
// __CANARY_URL__); a test writes a copy with the real paths and URL of its own canaries.

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { types } from 'node:util';
import { parseModule } from 'meriyah';
import { expect } from 'vitest';
import { resolveLibrary } from '../../src/libraries/resolve.js';
import type { AnyNode as Node, Expression } from '../../src/scan/ast.js';
import type { Outcome } from '../../src/sandbox/host.js';
import type { LibraryModule } from '../../src/libraries/resolve.js';
import type { Hook, UnitSpec } from '../../src/sandbox/protocol.js';
import { startUpstream } from '../support/upstream.js';

const HOSTILE_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'hostile');
/** flowguard's own folder, where the allowlisted libraries are installed. */
export const FLOWGUARD_DIR = resolve(import.meta.dirname, '..', '..');

/**
 * The host's environment secret. Set when this module loads, before any sandbox worker starts,
 * so a worker that inherited the environment would have it.
 */
export const ENV_SECRET = `env-canary-${randomBytes(12).toString('hex')}`;
process.env.FLOWGUARD_CANARY_KEY = ENV_SECRET;

/** How long to keep watching for a late effect (a fire-and-forget request, a delayed write). */
const SETTLE_MS = 200;

export const delay = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

// ---- the canary HTTP server --------------------------------------------------------------

export interface CanaryServer {
  url: string;
  /** TCP connections accepted, requests and upgrade (WebSocket) requests received. */
  contacts(): { connections: number; requests: number; upgrades: number };
  close(): Promise<void>;
}

async function startCanaryServer(): Promise<CanaryServer> {
  let upgrades = 0;
  const upstream = await startUpstream((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end('{"jsonrpc":"2.0","id":1,"result":"0x1"}');
  });
  upstream.server.on('upgrade', (_request, socket) => {
    upgrades += 1;
    socket.destroy();
  });
  return {
    url: `${upstream.origin}/canary`,
    contacts: () => ({ connections: upstream.connections(), requests: upstream.hits(), upgrades }),
    close: () => upstream.close(),
  };
}

// ---- the canary files --------------------------------------------------------------------

export interface CanaryFiles {
  /** A folder holding only `secret.txt`: nothing may be created in it. */
  dir: string;
  file: string;
  /** The text of `secret.txt`: it must never appear in any output. */
  secret: string;
}

function makeCanaryFiles(root: string): CanaryFiles {
  const dir = join(root, 'canary');
  mkdirSync(dir);
  const file = join(dir, 'secret.txt');
  const secret = `file-canary-${randomBytes(12).toString('hex')}`;
  writeFileSync(file, secret);
  return { dir, file, secret };
}

/** Names, sizes, times and contents of everything in the canary folder. */
function filesState(canary: CanaryFiles): unknown {
  return readdirSync(canary.dir)
    .sort()
    .map((name) => {
      const path = join(canary.dir, name);
      const stat = statSync(path);
      return { name, size: stat.size, mtimeMs: stat.mtimeMs, text: readFileSync(path, 'utf8') };
    });
}

// ---- the host's built-ins ----------------------------------------------------------------

interface Builtins {
  objectPrototype: Map<PropertyKey, PropertyDescriptor>;
  arrayPrototype: Map<PropertyKey, PropertyDescriptor>;
  functionPrototype: Map<PropertyKey, PropertyDescriptor>;
  json: { parse: typeof JSON.parse; stringify: typeof JSON.stringify };
  globalKeys: PropertyKey[];
}

function descriptors(target: object): Map<PropertyKey, PropertyDescriptor> {
  return new Map(
    Reflect.ownKeys(target).map((key) => [key, Object.getOwnPropertyDescriptor(target, key) as PropertyDescriptor]),
  );
}

function snapshotBuiltins(): Builtins {
  return {
    objectPrototype: descriptors(Object.prototype),
    arrayPrototype: descriptors(Array.prototype),
    functionPrototype: descriptors(Function.prototype),
    json: { parse: JSON.parse, stringify: JSON.stringify },
    globalKeys: Reflect.ownKeys(globalThis),
  };
}

function expectSameDescriptors(before: Map<PropertyKey, PropertyDescriptor>, target: object, what: string): void {
  const after = descriptors(target);
  expect([...after.keys()].map(String), `${what}: own keys`).toEqual([...before.keys()].map(String));
  for (const [key, descriptor] of before) {
    const now = after.get(key) as PropertyDescriptor;
    // Identity, not deep equality: a replaced function with the same shape is still a change.
    expect(
      now.value === descriptor.value && now.get === descriptor.get && now.set === descriptor.set,
      `${what}.${String(key)} unchanged`,
    ).toBe(true);
  }
}

function expectBuiltinsUnchanged(before: Builtins): void {
  expectSameDescriptors(before.objectPrototype, Object.prototype, 'Object.prototype');
  expectSameDescriptors(before.arrayPrototype, Array.prototype, 'Array.prototype');
  expectSameDescriptors(before.functionPrototype, Function.prototype, 'Function.prototype');
  expect(JSON.parse).toBe(before.json.parse);
  expect(JSON.stringify).toBe(before.json.stringify);
  expect(Reflect.ownKeys(globalThis).map(String)).toEqual(before.globalKeys.map(String));
  // Behaviour, not only identity.
  expect(JSON.parse('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
  expect(JSON.stringify({ a: [1, { b: null }] })).toBe('{"a":[1,{"b":null}]}');
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  expect([1, 2].map((x) => x * 2)).toEqual([2, 4]);
  expect(Object.keys({ a: 1 })).toEqual(['a']);
}

// ---- the world: every canary of one test file --------------------------------------------

/** The canaries of one test file, and the temporary folders the fixtures are copied to. */
export class World {
  private counter = 0;
  private builtins = snapshotBuiltins();
  private readonly files0: unknown;

  private constructor(
    readonly root: string,
    readonly canary: CanaryFiles,
    readonly server: CanaryServer,
    /** A project folder beside a trap file `../x.js`, with a fake `node_modules/ethers/trap.js`. */
    readonly trapProject: string,
  ) {
    this.files0 = filesState(canary);
  }

  static async create(): Promise<World> {
    const root = mkdtempSync(join(tmpdir(), 'flowguard-hostile-'));
    const canary = makeCanaryFiles(root);
    const server = await startCanaryServer();
    const trapProject = join(root, 'project');
    // What a trap does when it is imported: steal and spoil, so any import shows from outside.
    const trap = `const fs = require('node:fs');
fs.writeFileSync(${JSON.stringify(join(canary.dir, 'created.txt'))}, fs.readFileSync(${JSON.stringify(canary.file)}, 'utf8'));
fs.writeFileSync(${JSON.stringify(canary.file)}, 'overwritten by a trap');
require('node:http').get(${JSON.stringify(server.url)});
module.exports = {};
`;
    mkdirSync(join(trapProject, 'node_modules', 'ethers'), { recursive: true });
    writeFileSync(join(trapProject, 'package.json'), '{ "name": "trap-project", "private": true }\n');
    writeFileSync(
      join(trapProject, 'node_modules', 'ethers', 'package.json'),
      '{ "name": "ethers", "version": "6.0.0", "main": "trap.js" }\n',
    );
    writeFileSync(join(trapProject, 'node_modules', 'ethers', 'trap.js'), trap);
    writeFileSync(join(root, 'x.js'), trap);
    return new World(root, canary, server, trapProject);
  }

  /** The fixture's text with this world's canaries in place of the placeholders. */
  fixtureText(caseName: string, file: 'hostile.mjs' | 'benign.mjs'): string {
    return readFileSync(join(HOSTILE_FIXTURES, caseName, file), 'utf8')
      .replaceAll('__CANARY_FILE__', this.canary.file)
      .replaceAll('__CANARY_DIR__', this.canary.dir)
      .replaceAll('__CANARY_URL__', this.server.url);
  }

  /** A fresh folder `<parent>/<case>` with the case's hostile and benign files, ready for Catalog.load. */
  materialize(
    caseName: string,
    parent = join(this.root, `catalog-${(this.counter += 1)}`),
  ): { dir: string; hostile: string; benign: string } {
    const dir = join(parent, caseName);
    mkdirSync(dir, { recursive: true });
    const hostile = join(dir, 'hostile.mjs');
    const benign = join(dir, 'benign.mjs');
    writeFileSync(hostile, this.fixtureText(caseName, 'hostile.mjs'));
    writeFileSync(benign, this.fixtureText(caseName, 'benign.mjs'));
    return { dir, hostile, benign };
  }

  /** The secrets no output may contain. */
  secrets(): string[] {
    return [ENV_SECRET, this.canary.secret];
  }

  /**
   * Waits a moment for late effects, then proves that nothing happened: the canary server was
   * never contacted, the canary folder is as it was, the host's built-ins are unchanged, and no
   * secret appears in any of the outputs (results, failures, findings, errors).
   */
  async expectUntouched(outputs: unknown): Promise<void> {
    await delay(SETTLE_MS);
    expect(this.server.contacts(), 'the canary server was contacted').toEqual({
      connections: 0,
      requests: 0,
      upgrades: 0,
    });
    expect(filesState(this.canary), 'the canary folder changed').toEqual(this.files0);
    expectBuiltinsUnchanged(this.builtins);
    const text = render(outputs);
    for (const secret of this.secrets()) expect(text.includes(secret), 'a secret appears in the output').toBe(false);
  }

  async close(): Promise<void> {
    await this.server.close();
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Everything an output holds as text: JSON, plus the message and stack of any error. */
export function render(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (v instanceof Error) return { name: v.name, message: v.message, stack: v.stack, cause: v.cause };
      if (typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol') return String(v);
      return v;
    }) ?? String(value)
  );
}

// ---- what the host receives --------------------------------------------------------------

/**
 * Asserts that a value is plain data of the host: primitives, arrays and objects with the
 * host's own prototypes, no accessors, no proxies, no functions, no `__proto__` keys.
 */
export function expectPlainData(value: unknown, path = 'value'): void {
  if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) return;
  expect(typeof value, `${path} is data`).toBe('object');
  expect(types.isProxy(value), `${path} is no proxy`).toBe(false);
  const proto = Object.getPrototypeOf(value) as unknown;
  expect(proto === Object.prototype || proto === Array.prototype, `${path} has a host prototype`).toBe(true);
  for (const key of Reflect.ownKeys(value as object)) {
    expect(typeof key, `${path} has only string keys`).toBe('string');
    const descriptor = Object.getOwnPropertyDescriptor(value, key) as PropertyDescriptor;
    if (Array.isArray(value) && key === 'length') continue;
    expect(key, `${path} has no __proto__ key`).not.toBe('__proto__');
    expect('value' in descriptor, `${path}.${String(key)} is a data property`).toBe(true);
    expectPlainData(descriptor.value, `${path}.${String(key)}`);
  }
}

// ---- reading the fixtures ------------------------------------------------------------------

function parseFixture(text: string) {
  return parseModule(text, { ranges: true });
}

function exportedConst(text: string, name: string): Expression | null {
  for (const statement of parseFixture(text).body) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declaration.declarations) {
      if (declarator.id.type === 'Identifier' && declarator.id.name === name) return declarator.init ?? null;
    }
  }
  return null;
}

/** The text of the `handlers` factory expression, as the catalog hands it to the sandbox. */
export function handlersSource(text: string): string {
  const init = exportedConst(text, 'handlers');
  if (!init) throw new Error('the fixture has no export const handlers');
  return text.slice(init.start, init.end);
}

function literalStrings(node: Node | undefined): string[] {
  if (node?.type !== 'ArrayExpression') return [];
  return (node as unknown as { elements: Array<{ type: string; value?: unknown }> }).elements.flatMap((element) =>
    element.type === 'Literal' && typeof element.value === 'string' ? [element.value] : [],
  );
}

function mainProperty(text: string, key: string): Node | undefined {
  const main = exportedConst(text, 'main');
  if (main?.type !== 'ObjectExpression') return undefined;
  for (const property of main.properties) {
    if (property.type === 'Property' && property.key.type === 'Identifier' && property.key.name === key)
      return property.value;
  }
  return undefined;
}

/** `main.requiredLibraries` of a fixture, read from its syntax tree. */
export function requiredLibraries(text: string): string[] {
  return literalStrings(mainProperty(text, 'requiredLibraries'));
}

/** The route names of `main.routes`. */
export function routeNames(text: string): string[] {
  const routes = mainProperty(text, 'routes');
  if (routes?.type !== 'ObjectExpression') return [];
  return (routes as unknown as { properties: Array<{ key: { name?: string } }> }).properties.flatMap((p) =>
    p.key.name ? [p.key.name] : [],
  );
}

/** Whether the hostile or benign fixture of a case requires any library. */
export function caseUsesLibraries(caseName: string): boolean {
  return (['hostile.mjs', 'benign.mjs'] as const).some(
    (file) => requiredLibraries(readFileSync(join(HOSTILE_FIXTURES, caseName, file), 'utf8')).length > 0,
  );
}

/** The allowlisted libraries, resolved the way the catalog resolves them. */
export function libraryModules(names: readonly string[]): LibraryModule[] {
  return names.map((name) => {
    const library = resolveLibrary(name, FLOWGUARD_DIR);
    if (!library) throw new Error(`library ${name} is not installed`);
    return library;
  });
}

// ---- inputs ----------------------------------------------------------------------------------

export const STRUCT = {
  url: 'https://api.example.com/things',
  method: 'GET',
  headers: { accept: 'application/json' },
  body: null,
};
const RESPONSE = { ok: true, items: [1, 2, 3] };

export function hookInput(hook: Hook, payload: Record<string, unknown> = {}): Record<string, unknown> {
  return hook === 'preRequest'
    ? { struct: { ...STRUCT }, payload }
    : { response: { ...RESPONSE }, struct: { ...STRUCT }, payload };
}

/** A unit of one route, `getThing`, whose handlers factory is `source`; no libraries, no lists. */
export function thingUnit(id: string, source: string): UnitSpec {
  return { id, source, routes: ['getThing'], libraries: [], sharedLists: {} };
}

/** A unit whose route `getThing` has one `hook`, the code `handler`; `state`, code its factory runs first (its calls share it). */
export function hookUnit(id: string, hook: Hook, handler: string, state = ''): UnitSpec {
  return thingUnit(id, `() => { ${state} return { getThing: { ${hook}: ${handler} } }; }`);
}

/** What a benign twin returns: its input plus `benign: value` (see the fixtures). */
export function benignResult(hook: Hook, value: unknown): unknown {
  return hook === 'preRequest' ? { struct: { ...STRUCT, benign: value } } : { response: { benign: value } };
}

/** A frozen shared list, as the sandbox unit spec carries it. */
export const SHARED_LISTS = {
  evmChains: [
    { alias: 'ETHEREUM_MAINNET', chainId: 1 },
    { alias: 'POLYGON_MAINNET', chainId: 137 },
  ],
};

// ---- running a case ----------------------------------------------------------------------------

/** The suite's sandbox limits: short, so that hangs and memory attacks cost little time. */
export const LIMITS = { size: 1, deadlineMs: 500, memoryMb: 64 };
/**
 * The deadline of cases whose schemas require a library: a worker imports a library the first
 * time a unit needs it, inside that unit's load deadline, and ethers alone takes about 0.5 s.
 */
export const LIBRARY_DEADLINE_MS = 2000;
/**
 * A missed deadline is reported within the deadline plus this margin (worker replacement
 * included). The bound tells the deadline from a hang (a call that never answers, or one ended by
 * a much later timeout), not how fast a machine is: on a two-core machine at a load of 10 to 14 a
 * hung load was reported 1.7 to 2.1 s after its 0.5 s deadline, so the margin leaves room for that.
 */
export const DEADLINE_MARGIN_MS = 5000;

/** A failure with one of these codes, or success with a value that passes the check. */
export type CallExpectation = readonly string[] | ((value: unknown) => void);

/** Whatever runs hooks: a catalog by file, a sandbox by unit id. */
export interface Caller {
  call(target: string, route: string, hook: Hook, input: unknown): Promise<Outcome<unknown>>;
}

/** Runs one hostile call and checks its outcome; a deadline failure must come on time. */
export async function expectCall(
  caller: Caller,
  target: string,
  route: string,
  hook: Hook,
  expected: CallExpectation,
  outputs: unknown[],
  deadlineMs: number,
): Promise<void> {
  const started = performance.now();
  const outcome = await caller.call(target, route, hook, hookInput(hook, { canary: 'payload' }));
  const elapsed = performance.now() - started;
  outputs.push(outcome);
  if (typeof expected === 'function') {
    expect(outcome.ok, `${route}: ${render(outcome)}`).toBe(true);
    if (!outcome.ok) return;
    expectPlainData(outcome.value);
    expected(outcome.value);
    return;
  }
  expect(outcome.ok, `${route} should fail with ${expected.join('/')}: ${render(outcome)}`).toBe(false);
  if (outcome.ok) return;
  expect(expected, `${route}: ${render(outcome)}`).toContain(outcome.failure.code);
  if (outcome.failure.code === 'SEC105') expect(elapsed).toBeLessThan(deadlineMs + DEADLINE_MARGIN_MS);
}

/** The benign twin's route returns its expected value on the same catalog or sandbox. */
export async function expectBenign(
  caller: Caller,
  target: string,
  route: string,
  hook: Hook,
  value: unknown,
  outputs: unknown[],
): Promise<void> {
  const outcome = await caller.call(target, route, hook, hookInput(hook));
  outputs.push(outcome);
  expect(outcome, `benign ${route}`).toEqual({ ok: true, value: benignResult(hook, value) });
}
