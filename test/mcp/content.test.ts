// Call outcomes as tools/call results: the cap, structuredContent only when it matches, and error
// texts that say what to do.

import { describe, expect, it } from 'vitest';
import { errorResult, successResult } from '../../src/mcp/content.js';
import { OutputValidator, toOutputSchema } from '../../src/schema/tool-output.js';

const output = new OutputValidator(
  toOutputSchema({
    mimeType: 'application/json',
    schema: { type: 'object', properties: { n: { type: 'number' } } },
  }) as Record<string, unknown>,
);
const text = (result: { content: Array<{ type: string; text?: string }> }, index = 0) =>
  result.content[index]?.text ?? '';

describe('successResult', () => {
  it('cuts long text of a tool without outputSchema with a notice, and it is no error', () => {
    const result = successResult({ name: 't', maxChars: 10 }, 200, { kind: 'text', value: 'abcdefghijklmnop' });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe(
      "abcdefghij\n\n[flowguard: result cut here. It has 16 characters; only the first 10 are shown (the server's cap is 10). Ask for less, e.g. with a smaller limit, a narrower filter or a shorter period.]",
    );
    expect(result._meta).toEqual({ 'flowguard/status': 200, 'flowguard/cut': { shown: 10, total: 16 } });
  });

  it('never splits a surrogate pair at the cut', () => {
    const result = successResult({ name: 't', maxChars: 4 }, 200, { kind: 'text', value: 'abc😀def' });
    expect(text(result).startsWith('abc\n\n[flowguard')).toBe(true);
  });

  it('sends structuredContent only for a JSON object that matches', () => {
    expect(successResult({ name: 't', output, maxChars: 1000 }, 200, { kind: 'json', value: { n: 1 } })).toEqual({
      content: [{ type: 'text', text: '{\n  "n": 1\n}' }],
      structuredContent: { n: 1 },
      _meta: { 'flowguard/status': 200 },
    });
    for (const [content, why] of [
      [{ kind: 'json', value: { n: 'one' } }, 'at /n must be number'],
      [{ kind: 'json', value: [1] }, 'the API answered with an array, not a JSON object'],
      [{ kind: 'json', value: null }, 'the API answered with null, not a JSON object'],
      [{ kind: 'text', value: 'hello' }, 'the API answered with text, not a JSON object'],
      [{ kind: 'empty' }, 'the API answered with an empty body'],
    ] as const) {
      const result = successResult({ name: 't', output, maxChars: 1000 }, 200, content);
      expect(result.structuredContent).toBeUndefined();
      expect(result.isError).toBe(true);
      expect(text(result)).toContain(`does not match the tool's declared output schema (${why})`);
      expect(result._meta?.['flowguard/error']).toEqual({ kind: 'output-mismatch', message: why });
    }
  });

  it('sends a postRequest result that is not JSON-serialisable to a value as null text', () => {
    expect(text(successResult({ name: 't', maxChars: 100 }, 200, { kind: 'json', value: undefined }))).toBe('null');
  });
});

describe('errorResult', () => {
  it.each([
    [
      { kind: 'arguments', message: "invalid arguments: missing required argument 'id'" },
      "correct the arguments so they match the tool's inputSchema",
    ],
    [{ kind: 'missing-keys', message: 't needs K' }, 'the server operator has to grant the key'],
    [
      { kind: 'handler', code: 'SEC107', message: 'preRequest handler failed (SEC107): boom' },
      "the tool's own handler code failed",
    ],
    [{ kind: 'origin', message: 'left the origin' }, 'The tool is faulty'],
    [{ kind: 'upstream-status', status: 401, message: 'upstream answered 401' }, "The server's key may be wrong"],
    [{ kind: 'upstream-status', status: 404, message: 'upstream answered 404' }, 'Check identifiers in the arguments'],
    [{ kind: 'upstream-status', status: 422, message: 'upstream answered 422' }, 'the API rejected the request'],
    [{ kind: 'upstream-status', status: 503, message: 'upstream answered 503' }, 'the API failed on its side'],
    [
      { kind: 'upstream-status', status: 503, retryAfter: '120', message: 'upstream answered 503 (retry after 120 s)' },
      'wait 120 s, then call again',
    ],
    [
      { kind: 'upstream-failure', message: 'upstream request failed: timeout' },
      'could not be reached, did not answer in time',
    ],
    [{ kind: 'decode', message: 'response is not valid JSON' }, "the API's answer could not be read"],
  ] as const)('says what to do for %j', (error, advice) => {
    const result = errorResult(error);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(`: ${error.message}\n`);
    expect(text(result)).toContain(`What to do: `);
    expect(text(result)).toContain(advice);
    expect((result._meta?.['flowguard/error'] as { kind: string }).kind).toBe(error.kind);
  });

  it('advises waiting only where the API says it helps (429, 503 with Retry-After)', () => {
    const advised = (error: Parameters<typeof errorResult>[0]) =>
      /later|wait/i.test(text(errorResult(error)).split('What to do: ')[1] ?? '');
    expect(advised({ kind: 'upstream-status', status: 429, message: 'x' })).toBe(true);
    expect(advised({ kind: 'upstream-status', status: 503, retryAfter: '5', message: 'x' })).toBe(true);
    expect(advised({ kind: 'upstream-status', status: 503, message: 'x' })).toBe(false);
    expect(advised({ kind: 'upstream-status', status: 500, message: 'x' })).toBe(false);
    expect(advised({ kind: 'upstream-status', status: 302, message: 'x' })).toBe(false);
    expect(
      advised({
        kind: 'upstream-failure',
        message:
          'upstream request failed: https://a.example resolves to a private address (10.0.0.1, private); refused',
      }),
    ).toBe(false);
    expect(advised({ kind: 'decode', message: 'response is not valid UTF-8 (text/plain)' })).toBe(false);
  });

  it('carries the handler code and a retry-after', () => {
    expect(errorResult({ kind: 'handler', code: 'SEC105', message: 'x' })._meta).toEqual({
      'flowguard/error': { kind: 'handler', code: 'SEC105' },
    });
    const limited = errorResult({
      kind: 'upstream-status',
      status: 429,
      retryAfter: '30',
      message: 'upstream answered 429 (retry after 30 s)',
    });
    expect(text(limited)).toBe(
      'Error (upstream-status, status 429): upstream answered 429 (retry after 30 s)\nRetry after: 30\nWhat to do: the API is rate limiting: wait 30 s, then call again.',
    );
  });
});
