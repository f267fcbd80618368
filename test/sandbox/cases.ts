// The cases of the adversarial suite: for each folder under test/fixtures/hostile, what the
// static scan reports about hostile.mjs, how its factory or each of its routes fails when run
// straight in the sandbox, and what the benign twin returns.

import { expect } from 'vitest';
import type { Code } from '../../src/report/codes.js';
import type { Hook, SandboxCode } from '../../src/sandbox/protocol.js';
import { caseUsesLibraries, LIBRARY_DEADLINE_MS, LIMITS, STRUCT } from './helpers.js';

/** A hostile call either fails with one of these codes, or succeeds and its value passes the check. */
export type CallExpectation = readonly SandboxCode[] | ((value: unknown) => void);

export function routesOf(c: HostileCase): string[] {
  return Object.keys(c.benign);
}

export interface HostileCase {
  /** The static scan rejects hostile.mjs with (at least) these codes; nothing of it runs. */
  scan?: readonly Code[];
  /** The handlers factory fails at load with one of these codes. */
  load?: readonly SandboxCode[];
  /** What each route does when called (straight in the sandbox, or through the catalog when the scan passes). */
  calls?: Record<string, CallExpectation>;
  hook?: Hook;
  /** What each route of the benign twin returns (as `benign` in its struct, or its response). */
  benign: Record<string, unknown>;
  /** Refused before anything reaches a sandbox (library names, list references): a catalog-only case. */
  catalogOnly?: boolean;
  /** Sandbox limits other than the suite's. */
  limits?: { deadlineMs?: number; memoryMb?: number };
  /**
   * Runs on a sandbox (or catalog) of its own: hangs and memory attacks replace workers and
   * take the worker's time, which would skew the deadline timing of cases queued behind them.
   */
  isolated?: boolean;
  /** Load from the trap project (fake ethers with trap.js, and ../x.js beside it). */
  trapProject?: boolean;
}

const THROWS: readonly SandboxCode[] = ['SEC107'];
const FROZEN: readonly SandboxCode[] = ['SEC102'];
const DEADLINE: readonly SandboxCode[] = ['SEC105'];
/** A library that refuses (frozen state) or the network guard that refuses; either way nothing leaves. */
const NO_NETWORK: readonly SandboxCode[] = ['SEC100', 'SEC102', 'SEC107'];

const struct = (value: unknown) => (value as { struct: Record<string, unknown> }).struct;

export const CASES: Record<string, HostileCase> = {
  // Reading the environment or a file, through every spelling.
  'process-bare': { scan: ['SEC006'], calls: { getThing: THROWS }, benign: { getThing: 'object' } },
  'process-globalthis': { scan: ['SEC008'], calls: { getThing: THROWS }, benign: { getThing: 'object' } },
  'process-computed': { scan: ['SEC008'], calls: { getThing: THROWS }, benign: { getThing: 'process' } },
  'process-unicode-escape': { scan: ['SEC006'], calls: { getThing: THROWS }, benign: { getThing: 'process' } },
  'require-fs': { scan: ['SEC002', 'SEC005'], calls: { getThing: THROWS }, benign: { getThing: 2 } },
  // SES refuses to evaluate source with an import expression: the factory never loads.
  'import-fs': { scan: ['SEC001', 'SEC005'], load: ['SEC104'], benign: { getThing: 'import fs' } },
  'module-constructor': { scan: ['SEC002'], calls: { getThing: THROWS }, benign: { getThing: 'mod' } },
  // SES refuses source with a direct eval in it.
  'eval-process': { scan: ['SEC003'], load: ['SEC104'], benign: { getThing: 1 } },
  'eval-indirect': {
    scan: ['SEC003'],
    calls: { parenthesized: THROWS, indirect: THROWS, aliased: THROWS },
    benign: { parenthesized: 1, indirect: 2, aliased: 3 },
  },
  'function-global': {
    scan: ['SEC004', 'SEC010'],
    calls: { call: THROWS, construct: THROWS },
    benign: { call: 1, construct: 2 },
  },

  // Escaping through constructor chains.
  'moment-constructor': { scan: ['SEC004'], calls: { getThing: THROWS }, benign: { getThing: '1970-01-01' } },
  'ethers-constructor': {
    scan: ['SEC004'],
    calls: { viaFunction: THROWS, viaClass: THROWS, viaNamespace: THROWS },
    benign: {
      viaFunction: '0x52908400098527886E0F7030069857D2E4169EE7',
      viaClass: '0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8',
      viaNamespace: 'function',
    },
  },
  // The lists of the catalog layer are evmChains from shared-lists/, filtered to the two entries of SHARED_LISTS.
  'list-constructor': { scan: ['SEC004'], calls: { getThing: THROWS }, benign: { getThing: 2 } },
  'payload-constructor': { scan: ['SEC004'], calls: { getThing: THROWS }, benign: { getThing: 0 } },
  'struct-proto-constructor': { scan: ['SEC004'], calls: { getThing: THROWS }, benign: { getThing: STRUCT.url } },
  'error-constructor': {
    scan: ['SEC004'],
    calls: { newError: THROWS, caughtError: THROWS, libraryError: THROWS },
    benign: { newError: 'x', caughtError: 'TypeError', libraryError: 'INVALID_ARGUMENT' },
  },
  'function-kind-constructors': {
    calls: { asyncFunction: THROWS, generatorFunction: THROWS, asyncGeneratorFunction: THROWS },
    benign: { asyncFunction: 1, generatorFunction: 2, asyncGeneratorFunction: 3 },
  },
  'reflect-constructor': {
    calls: { functionPrototype: THROWS, libraryPrototype: THROWS },
    benign: { functionPrototype: 1, libraryPrototype: 'function' },
  },

  // Dynamic import and stack-trace hooks.
  'dynamic-import': { scan: ['SEC001', 'SEC007'], load: ['SEC104'], benign: { builtin: 18, dataUrl: 37 } },
  'import-via-eval': { scan: ['SEC003'], calls: { getThing: THROWS }, benign: { getThing: 'import' } },
  'prepare-stack-trace': {
    calls: {
      // Whatever the hook captured, nothing of it led anywhere.
      capture: (value) => expect(struct(value).stolen).toBe(''),
      throwAfter: THROWS,
    },
    benign: { capture: 'own', throwAfter: 'other' },
  },

  // The network.
  // fetch outside an executeRequest handler is a network attempt (R12), refused and counted.
  // (The scan reports it as information, SEC021: the file loads.)
  fetch: { calls: { getThing: ['SEC100'] }, benign: { getThing: '/things' } },
  'network-globals': {
    scan: ['SEC014'],
    calls: { webSocket: THROWS, xmlHttpRequest: THROWS, eventSource: THROWS },
    benign: { webSocket: 'ws:', xmlHttpRequest: 'https:', eventSource: '/x' },
  },
  'axios-request': {
    calls: { get: NO_NETWORK, instance: NO_NETWORK, fetchAdapter: NO_NETWORK },
    benign: { get: 'https://api.example.com/things?a=1', instance: 'function', fetchAdapter: 'function' },
  },
  'ethers-network': {
    calls: { jsonRpcProvider: NO_NETWORK, fetchRequest: NO_NETWORK, webSocketProvider: NO_NETWORK },
    benign: { jsonRpcProvider: 'function', fetchRequest: 'https://api.example.com/things', webSocketProvider: '1.0' },
  },

  // Polluting prototypes; frozen data.
  'pollute-prototypes': {
    calls: {
      assignObjectPrototype: FROZEN,
      defineOnObjectPrototype: FROZEN,
      protoKey: FROZEN,
      arrayPrototype: FROZEN,
      replaceJson: FROZEN,
    },
    benign: {
      assignObjectPrototype: 'function',
      defineOnObjectPrototype: 'a',
      protoKey: true,
      arrayPrototype: '2,4',
      replaceJson: 1,
    },
  },
  'proto-result': {
    hook: 'postRequest',
    calls: {
      getThing: (value) => {
        const response = (value as { response: Record<string, unknown> }).response;
        expect(response.polluted).toBeUndefined();
        expect(Object.keys(response)).toEqual(['nested']);
        expect((response.nested as Record<string, unknown>).polluted).toBeUndefined();
      },
    },
    benign: { getThing: 1 },
  },
  'frozen-list': {
    calls: { pushEntry: FROZEN, editEntry: FROZEN, addList: FROZEN },
    benign: { pushEntry: 2, editEntry: 1, addList: 'evmChains' },
  },

  // Hangs and memory.
  'load-busy-loop': { isolated: true, load: DEADLINE, benign: { getThing: 1000 } },
  'load-regex': { isolated: true, load: DEADLINE, benign: { getThing: false } },
  // SharedArrayBuffer and Atomics are not in a Compartment: the factory throws instead of blocking.
  'load-atomics': { isolated: true, load: ['SEC104', 'SEC105'], benign: { getThing: 4 } },
  'call-hangs': {
    isolated: true,
    calls: {
      busyLoop: DEADLINE,
      neverSettles: DEADLINE,
      catastrophicRegex: DEADLINE,
      microtaskLoop: ['SEC105', 'SEC106'],
      thenableNeverSettles: DEADLINE,
    },
    benign: {
      busyLoop: 'busyLoop',
      neverSettles: 'neverSettles',
      catastrophicRegex: false,
      microtaskLoop: 'microtaskLoop',
      thenableNeverSettles: 'thenable',
    },
  },
  // Filling a 64 MiB heap takes V8 a few hundred milliseconds of garbage collection: a longer deadline.
  'memory-exhaustion': {
    isolated: true,
    limits: { deadlineMs: 3000 },
    calls: { heap: ['SEC106'] },
    benign: { heap: 1000 },
  },

  // What comes back: the host gets plain data or a clear failure, and runs none of it.
  'result-tricks': {
    calls: {
      throwingGetter: ['SEC101', 'SEC107'],
      countingGetter: (value) => expect(typeof struct(value).reads).toBe('number'),
      // toJSON runs in the worker while serialising; the host receives its plain output, checked.
      enumerableToJson: (value) => expect(struct(value)).toEqual({ replaced: true }),
      thenable: (value) => expect(struct(value).via).toBe('then'),
      proxy: (value) => expect(struct(value)).toEqual(STRUCT),
    },
    benign: {
      throwingGetter: 'throwingGetter',
      countingGetter: 'countingGetter',
      enumerableToJson: 'enumerableToJson',
      thenable: 'thenable',
      proxy: 'proxy',
    },
  },

  // One schema against another in the same worker (the benign twin is the other schema).
  'cross-schema': {
    calls: { momentFormat: FROZEN, urlPrototype: FROZEN, datePrototype: FROZEN, mathRandom: FROZEN, stash: FROZEN },
    benign: {
      momentFormat: '1970-01-01',
      urlPrototype: 'https://api.example.com/x?y=1',
      datePrototype: '1970-01-01T00:00:00.000Z',
      mathRandom: 'number',
      stash: 'undefined',
    },
  },

  // List references that are paths, one of them the canary file: refused before any list is looked up.
  'list-ref-path': { scan: ['VAL070'], catalogOnly: true, benign: { getThing: 2 } },

  // Library names that are paths: refused before anything is resolved or imported.
  'library-subpath': { scan: ['VAL026'], catalogOnly: true, trapProject: true, benign: { getThing: 'moment' } },
  'library-relative': { scan: ['VAL026'], catalogOnly: true, trapProject: true, benign: { getThing: 'moment' } },
};

/**
 * Which sandbox or catalog a case runs on: one shared by the quick cases, one shared by the
 * cases that use libraries (longer deadline, libraries imported once), or one of its own.
 */
export type Group = 'plain' | 'library' | 'own';

export function groupOf(name: string, c: HostileCase): Group {
  if (c.isolated || c.trapProject || c.limits) return 'own';
  return caseUsesLibraries(name) ? 'library' : 'plain';
}

export function limitsOf(name: string, c: HostileCase): typeof LIMITS {
  return { ...LIMITS, ...(caseUsesLibraries(name) ? { deadlineMs: LIBRARY_DEADLINE_MS } : {}), ...c.limits };
}
