// Runs first in every sandbox worker, before any library is imported: every way Node offers to
// open a connection or resolve a name is replaced by a function that refuses and counts the
// attempt. Libraries keep their APIs (axios, ethers providers), but nothing they try leaves.

import dgram from 'node:dgram';
import dns from 'node:dns';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { currentJob, type Job } from './job-context.js';

/** Thrown to handler code inside the sandbox; the core reports the attempt as SEC100 (not a FlowguardError: it never reaches the host). */
export class NetworkBlockedError extends Error {
  constructor(what: string) {
    super(`network access is not available to handlers (${what})`);
    this.name = 'NetworkBlockedError';
  }
}

/**
 * Counts a refused attempt against the request whose code made it (job-context.ts): it fails
 * that request (SEC100) and no other. An ended request's attempt fails no one; `late` hears of it.
 */
export function countNetworkAttempt(): void {
  const job = currentJob();
  if (!job) return;
  if (job.ended) late?.(job);
  else job.attempts += 1;
}

let late: ((job: Job) => void) | null = null;

/** Who hears of an attempt made by code an ended request left behind (the worker tells the host). */
export function onLateAttempt(listener: (job: Job) => void): void {
  late ??= listener;
}

function refuse(what: string): () => never {
  return () => {
    countNetworkAttempt();
    throw new NetworkBlockedError(what);
  };
}

function replace(target: object, names: readonly string[], prefix: string): void {
  for (const name of names) {
    Object.defineProperty(target, name, { value: refuse(`${prefix}.${name}`), writable: false, configurable: false });
  }
}

replace(net.Socket.prototype, ['connect'], 'net.Socket');
replace(net, ['connect', 'createConnection'], 'net');
replace(tls, ['connect'], 'tls');
replace(http, ['request', 'get'], 'http');
replace(https, ['request', 'get'], 'https');
replace(http2, ['connect'], 'http2');
replace(dgram, ['createSocket'], 'dgram');
replace(dns, ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'reverse'], 'dns');
replace(
  dns.promises,
  ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'reverse'],
  'dns.promises',
);
for (const name of ['WebSocket', 'EventSource', 'XMLHttpRequest']) {
  Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false });
}

/** Where the global `fetch` goes once the worker has set it up: the core's bridge (bridge-fetch.ts). */
let bridgedFetch: ((input: unknown, init?: unknown) => Promise<unknown>) | null = null;

/** Routes libraries' global `fetch` (yahoo-finance2, pinata, ...) to the core's bridge; once. */
export function routeGlobalFetch(fetch: (input: unknown, init?: unknown) => Promise<unknown>): void {
  bridgedFetch ??= fetch;
}

// Libraries that use the global `fetch` keep it, but it only asks the core, for the
// executeRequest call running now (R12); before the bridge is set up it refuses like the rest.
Object.defineProperty(globalThis, 'fetch', {
  value: (input: unknown, init?: unknown): Promise<unknown> => {
    if (bridgedFetch) return bridgedFetch(input, init);
    countNetworkAttempt();
    return Promise.reject(new NetworkBlockedError('fetch'));
  },
  writable: false,
  configurable: false,
});
