// One generated case against the running world, and the properties checked after it:
//
// 1. both servers are alive, `/healthz` (HTTP) or a ping (stdio) answers, and so does tools/list;
// 2. no form of either key is in a tool result, the logs, the audit log or any other file written
//    under the project, the metrics text or Redis;
// 3. the HTTP endpoint answers a hostile request of the client (two Host lines, another token on
//    the session, no token) as it must;
// 4. a 429 that another namespace's request received does not pause the operator's calls;
// 5. the forbidden servers saw no connection; every request that carried a key went to the key's
//    own API (`keyed`), on one of the operator's routes, under its own Host; no call's handler
//    made more requests than the per-call bound.
//
// A failed property throws one error listing every violation, with the case number; fast-check
// adds the seed and the counterexample.

import { keyFormsIn } from './keys.js';
import { LEGIT_PREFIX, hostileText, namespaceOf } from './schemas.js';
import { materialize, materializedText, withPorts, type FuzzCase } from './arbitraries.js';
import { auditRecords, leaksInFiles, leaksInRedis } from './evidence.js';
import { waitFor } from '../support/wait.js';
import type { Served, TransportName } from './servers.js';
import { MAX_REQUESTS_PER_CALL, reloaded, revive, TOKENS, writeCaseFiles, type World } from './world.js';
import { runProbe } from './probes.js';
import type { RecordEntry } from '../support/upstream.js';

/** Time for the audit log and the logger to write what the calls produced (each flushes every 100 ms). */
const SETTLE_MS = 350;
const CALL_TIMEOUT_MS = 45_000;

interface CallOutcome {
  tool: string;
  text: string;
  /** The server answered it (a result or a JSON-RPC error), so it must have its audit record. */
  answered: boolean;
}

let rawId = 1_000_000_000;

/**
 * Calls `tool` and returns what came back (result or error) as text, whatever happened. Arguments
 * the SDK client cannot send (it overflows its stack serialising a few thousand levels of
 * nesting) go out as raw JSON-RPC text on the same transport: the server must meet them either
 * way. Their answer is not awaited, nor counted for the audit check (it may come after it).
 */
async function call(
  server: Served,
  tool: string,
  args: Record<string, unknown>,
  argsText = () => JSON.stringify(args),
): Promise<CallOutcome> {
  try {
    const result = await Promise.race([
      server.client.callTool({ name: tool, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS }),
      server.died.then(() => 'died' as const),
    ]);
    if (result === 'died') return { tool, text: '', answered: false };
    return { tool, text: JSON.stringify(result), answered: true };
  } catch (error) {
    const message = String(error instanceof Error ? error.message : error);
    if (!(error instanceof RangeError))
      return { tool, text: `thrown: ${message}`, answered: !/timed out|closed/i.test(message) };
    await server.sendRaw(
      `{"jsonrpc":"2.0","id":${rawId++},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${argsText()}}}`,
    );
    return { tool, text: '', answered: false };
  }
}

/** Targets whose text no check at load could object to (a loopback literal or a label over a public suffix might rightly become a finding). */
const PLAIN_TARGETS = new Set(['root', 'other', 'down', 'keyed', 'user-url']);

/**
 * The hostile tools a server must list after the reload: those of generated files that are valid,
 * declare no key (a key's grant or lock may hide the others) and write only plain origins.
 * Without this the suite could generate files that never load and attack nothing.
 */
function expectedTools(spec: FuzzCase, namespaces: string[]): string[] {
  const loads = (file: FuzzCase['files'][number]) =>
    (file.kind === 'fetcher' &&
      file.declares.length === 0 &&
      file.actions.every((action) => PLAIN_TARGETS.has(action.target))) ||
    (file.kind === 'looper' && file.how !== 'factory');
  return spec.files.flatMap((file, i) => (loads(file) ? [`${namespaces[i]}_run`] : []));
}

/** The calls of one case on one server: the operator's tools with plain and hostile arguments, every hostile tool, an unknown tool. */
async function playCalls(
  world: World,
  server: Served,
  spec: FuzzCase,
  namespaces: string[],
  violations: string[],
): Promise<CallOutcome[]> {
  let tools: string[] = [];
  try {
    tools = (await server.client.listTools(undefined, { timeout: 15_000 })).tools.map((tool) => tool.name);
  } catch {
    return [];
  }
  for (const missing of expectedTools(spec, namespaces).filter((name) => !tools.includes(name))) {
    const why = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes(`case${world.caseNumber}-`))
      .join('\n')
      .slice(0, 600);
    violations.push(
      `the suite's own generated file of ${missing} did not load (a defect of the generator, not of the server): ${why}`,
    );
  }
  const ours = tools.filter(
    (name) => name.startsWith('keyed_') || namespaces.some((namespace) => name.startsWith(`${namespace}_`)),
  );
  const calls: Promise<CallOutcome>[] = [];
  spec.args.forEach((argSpec, i) => {
    for (const tool of ours) {
      // One tag per call: the request bound is counted by it.
      const tag = `c${world.caseNumber}-${server.transport}-${i}-${tool}`;
      calls.push(
        call(server, tool, materialize(argSpec, tag, world.places), () => materializedText(argSpec, tag, world.places)),
      );
    }
    if (argSpec.q.kind === 'text')
      calls.push(
        call(server, `nosuch_${argSpec.q.value}`, materialize(argSpec, `c${world.caseNumber}-unknown`, world.places)),
      );
  });
  // The operator's own calls come after the hostile ones: whatever those did to the API's state
  // (a pause after a 429 they received) must not answer for the operator's.
  const hostile = await Promise.all(calls);
  const plain = await Promise.all([
    call(server, 'keyed_echo', { q: `plain-${world.caseNumber}` }),
    call(server, 'keyed_bridge', {
      q: `plain-${world.caseNumber}`,
      ...(spec.front ? { host: withPorts(spec.front, world.places) } : {}),
    }),
  ]);
  if (spec.answer.kind === 'pause-others') {
    for (const outcome of plain.filter((outcome) => outcome.text.includes('rate-limited')))
      violations.push(
        `${outcome.tool} on ${server.transport} was paused by a 429 another namespace's request received: ${outcome.text.slice(0, 300)}`,
      );
  }
  return [...hostile, ...plain];
}

function requestText(entry: RecordEntry): string {
  return `${entry.method} ${entry.url}\n${entry.rawHeaders.join('\n')}\n\n${entry.body}`;
}

/** Violations of the request properties among the requests the upstreams received since the last check. */
function judgeRequests(world: World): string[] {
  const violations: string[] = [];
  for (const [name, server] of [
    ['forbiddenHttp', world.forbiddenHttp],
    ['forbiddenHttps', world.forbiddenHttps],
  ] as const) {
    const connections = server.connections() - world.judged[name];
    if (connections > 0)
      violations.push(
        `the ${name} server was reached: ${connections} connections (requests so far: ${server.records.map((r) => r.url).join(', ') || 'none whole'})`,
      );
    world.judged[name] = server.connections();
  }
  const hostsOfKeyed = new Set([`127.0.0.1:${world.keyed.port}`, 'keyed.fuzz.example']);
  const perTag = new Map<string, number>();
  for (const [name, upstream] of [
    ['keyed', world.keyed],
    ['other', world.other],
  ] as const) {
    for (const entry of upstream.records.slice(world.judged[name])) {
      const tag = new URL(entry.url, 'http://x').searchParams.get('t');
      if (tag !== null) perTag.set(tag, (perTag.get(tag) ?? 0) + 1);
      const forms = keyFormsIn(requestText(entry));
      if (forms.length === 0) continue;
      const where = `${entry.method} ${entry.url.slice(0, 200)} (Host ${String(entry.headers.host)})`;
      if (name !== 'keyed') violations.push(`a key went to ${name}: ${where}: ${forms[0]}`);
      else if (!entry.url.startsWith(LEGIT_PREFIX))
        violations.push(`a key went to keyed on a route not the operator's: ${where}: ${forms[0]}`);
      else if (
        !hostsOfKeyed.has(String(entry.headers.host)) ||
        entry.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === 'host').length !== 1
      )
        violations.push(`a key went to keyed under another Host: ${where}`);
    }
    world.judged[name] = upstream.records.length;
  }
  for (const [tag, count] of perTag) {
    if (count > MAX_REQUESTS_PER_CALL)
      violations.push(`call ${tag} sent ${count} requests, over network.maxRequestsPerCall ${MAX_REQUESTS_PER_CALL}`);
  }
  return violations;
}

/** Every tools/call the server answered has its audit record (unknown tools and refused arguments too: probing must be visible). */
async function judgeAudit(world: World, server: Served, before: number, played: CallOutcome[]): Promise<string[]> {
  const expected = before + played.filter((outcome) => outcome.answered).length;
  if (await waitFor(() => server.death() !== '' || auditRecords(world.project, server.pid) >= expected, 5_000, 50))
    return [];
  const missing = expected - auditRecords(world.project, server.pid);
  return [
    `the ${server.transport} server answered ${expected - before} tools/call requests but wrote ${missing} audit records fewer`,
  ];
}

/** Violations of liveness; a dead server is started again for the next case. */
async function judgeHealth(world: World, transport: TransportName): Promise<string[]> {
  const server = world.servers[transport];
  const tail = () => server.stderr().slice(-1500);
  if (server.death() !== '') {
    const violation = `the ${transport} server died (${server.death()}); its stderr ends:\n${tail()}`;
    await revive(world, transport);
    return [violation];
  }
  const violations: string[] = [];
  const status = await server.health();
  if (status !== 200) violations.push(`the ${transport} server's health check answered ${status}`);
  try {
    await server.client.listTools(undefined, { timeout: 15_000 });
  } catch (error) {
    violations.push(`the ${transport} server did not answer tools/list: ${String(error)}`);
  }
  if (violations.length > 0) {
    violations.push(`its stderr ends:\n${tail()}`);
    await revive(world, transport);
  }
  return violations;
}

async function judgeLeaks(world: World, outcomes: CallOutcome[]): Promise<string[]> {
  const violations: string[] = [];
  for (const outcome of outcomes) {
    const forms = keyFormsIn(outcome.text);
    if (forms.length > 0) violations.push(`a key in the result of ${outcome.tool.slice(0, 60)}: ${forms[0]}`);
  }
  for (const [transport, server] of Object.entries(world.servers)) {
    const forms = keyFormsIn(world.reads.text(`log-${transport}`, server.stderr()));
    if (forms.length > 0) violations.push(`a key in the ${transport} server's log output: ${forms[0]}`);
  }
  for (const found of leaksInFiles(world.project, world.reads))
    violations.push(`a key in a file written under the project: ${found}`);
  const metrics = await world.servers.http.metrics().catch(() => '');
  const inMetrics = keyFormsIn(metrics);
  if (inMetrics.length > 0) violations.push(`a key in /metrics: ${inMetrics[0]}`);
  if (world.redisClient) {
    for (const found of await leaksInRedis(world.redisClient)) violations.push(`a key in Redis: ${found}`);
  }
  return violations;
}

/** Plays `spec` as case number world.caseNumber + 1 and throws if any property fails. */
export async function runCase(world: World, spec: FuzzCase): Promise<void> {
  world.caseNumber += 1;
  world.answer = spec.answer;
  const namespaces = spec.files.map((_, i) => namespaceOf(world.caseNumber * 4 + i));
  writeCaseFiles(
    world,
    spec.files.map((file, i) => hostileText(file, world.caseNumber * 4 + i, world.places)),
  );
  const violations: string[] = [];
  const transports = Object.keys(world.servers) as TransportName[];
  const outcomes = await Promise.all(
    transports.map(async (transport) => {
      if (!(await reloaded(world.servers[transport], world.caseNumber))) {
        violations.push(`the ${transport} server did not reload within 30 s`);
        return [];
      }
      const server = world.servers[transport];
      const recordsBefore = auditRecords(world.project, server.pid);
      const played = await playCalls(world, server, spec, namespaces, violations);
      violations.push(...(await judgeAudit(world, server, recordsBefore, played)));
      return played;
    }),
  );
  const endpoint = world.servers.http.endpoint;
  if (endpoint && world.servers.http.death() === '') {
    const shown = await runProbe(spec.probe, {
      url: endpoint.url,
      sessionId: endpoint.sessionId(),
      token: TOKENS[0],
      otherToken: TOKENS[1],
    });
    if (shown) violations.push(shown);
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  for (const transport of transports) violations.push(...(await judgeHealth(world, transport)));
  violations.push(...(await judgeLeaks(world, outcomes.flat())), ...judgeRequests(world));
  if (violations.length > 0) throw new Error(`case ${world.caseNumber}:\n- ${violations.join('\n- ')}`);
}
