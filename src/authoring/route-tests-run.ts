// A route's `tests` run as calls (`flowguard test`): each test's arguments go through
// Catalog.call, the pipeline `serve` uses (arguments, handlers, keys, the upstream guard, HTTP),
// with the response cache bypassed, and each answer is checked against the route's declared
// output. A few tests run at once (`concurrency`); a call the upstream guard held back
// (`rate-limited`, nothing sent) waits the time it names and is made again, a bounded number of
// times: a test run keeps to the limits an operator set for the API instead of failing on them.

import { setTimeout as sleep } from 'node:timers/promises';
import type { CallResult } from '../call/outcome.js';
import type { Catalog } from '../runtime/catalog.js';
import type { Tool } from '../catalog/tools.js';
import type { OutputSpec } from '../schema/types.js';
import { answerSchema, OutputValidator } from '../schema/tool-output.js';

export interface RouteTestResult {
  tool: Tool;
  /** The test's place in the route's `tests`. */
  index: number;
  description: string;
  /** The arguments sent: the test without `_description`. */
  arguments: Record<string, unknown>;
  /** The call succeeded and its answer matches the route's output. */
  ok: boolean;
  /** The upstream's status, where an answer came. */
  status?: number;
  ms: number;
  /** Why the call failed: `kind: message`. */
  error?: string;
  /** Where the answer departs from the route's output: `/data/0/price: must be number`. */
  mismatches: string[];
  result: CallResult;
}

export interface RouteTestRunOptions {
  /** Tests running at once; at least 1. */
  concurrency: number;
  signal?: AbortSignal;
  /** Hears each finished test, with how many are done of how many. */
  onResult?: (result: RouteTestResult, done: number, total: number) => void;
}

/** Calls held back by the upstream guard are made again at most this many times. */
const MAX_RATE_LIMITED_RETRIES = 5;
/** The longest wait for a held-back call before it is made again, in milliseconds. */
const MAX_RATE_LIMITED_WAIT_MS = 30_000;

/** Runs every test of `tools`; the results in the order of the tools and their tests. */
export async function runRouteTests(
  catalog: Catalog,
  tools: readonly Tool[],
  options: RouteTestRunOptions,
): Promise<RouteTestResult[]> {
  const jobs = tools.flatMap((tool) => tool.route.tests.map((test, index) => ({ tool, index, test })));
  const results: RouteTestResult[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const position = next++;
      const { tool, index, test } = jobs[position] as (typeof jobs)[number];
      const result = await runOne(catalog, tool, index, test, options.signal);
      results[position] = result;
      options.onResult?.(result, ++done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, options.concurrency), jobs.length) }, worker));
  return results;
}

async function runOne(
  catalog: Catalog,
  tool: Tool,
  index: number,
  test: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<RouteTestResult> {
  const { _description: description, ...args } = test;
  const started = performance.now();
  let result = await catalog.call(tool.name, args, { cache: false, signal });
  for (
    let retry = 0;
    retry < MAX_RATE_LIMITED_RETRIES && !result.ok && result.error.kind === 'rate-limited' && !signal?.aborted;
    retry += 1
  ) {
    // An abort ends the wait early (the rejection is that, not a failure).
    await sleep(retryWaitMs(result.error.retryAfter), undefined, { signal }).catch(() => {});
    result = await catalog.call(tool.name, args, { cache: false, signal });
  }
  const ms = Math.round(performance.now() - started);
  const base = { tool, index, description: String(description), arguments: args, ms, result };
  if (!result.ok) {
    const message =
      result.error.kind === 'arguments'
        ? `the test's arguments do not fit the route's parameters: ${result.error.message}`
        : result.error.message;
    return {
      ...base,
      ok: false,
      status: result.error.status,
      error: `${result.error.kind}: ${message}`,
      mismatches: [],
    };
  }
  const mismatches = answerMismatches(tool.route.output, result.content);
  return { ...base, ok: mismatches.length === 0, status: result.status, mismatches };
}

/** `retryAfter` of a rate-limited refusal is whole seconds; at least a quarter second, at most the bound. */
function retryWaitMs(retryAfter: string | undefined): number {
  const seconds = Number(retryAfter);
  return Math.min(MAX_RATE_LIMITED_WAIT_MS, Math.max(250, Number.isFinite(seconds) ? seconds * 1000 : 1000));
}

/** The kind of decoded answer each output mime type stands for. */
const ANSWER_KINDS: Record<OutputSpec['mimeType'], CallContentKind> = {
  'application/json': 'json',
  'text/plain': 'text',
  'text/markdown': 'text',
  'application/rss+xml': 'text',
  'image/png': 'image',
  'application/octet-stream': 'binary',
};

type CallContent = Extract<CallResult, { content: unknown }>['content'];
type CallContentKind = CallContent['kind'];

/** One validator per output, compiled on first use and shared by that route's tests. */
const validators = new WeakMap<OutputSpec, OutputValidator | null>();

/** Where an answer departs from the route's declared output; none without an output to check against. */
function answerMismatches(output: OutputSpec | undefined, content: CallContent): string[] {
  if (!output) return [];
  const expected = ANSWER_KINDS[output.mimeType];
  if (content.kind !== expected)
    return [`(root): the API answered with ${describeKind(content)}; the output declares ${output.mimeType}`];
  if (content.kind !== 'json') return [];
  let validator = validators.get(output);
  if (validator === undefined) {
    const schema = answerSchema(output);
    validators.set(output, (validator = schema ? new OutputValidator(schema) : null));
  }
  const mismatch = validator?.mismatch(content.value);
  return mismatch ? [`${mismatch.path}: ${mismatch.message}`] : [];
}

function describeKind(content: CallContent): string {
  switch (content.kind) {
    case 'json':
      return 'JSON';
    case 'text':
      return 'text';
    case 'image':
    case 'binary':
      return `${content.kind === 'image' ? 'an image' : 'binary data'} (${content.mimeType})`;
    case 'empty':
      return 'an empty body';
  }
}
