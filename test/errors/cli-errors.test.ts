// The one error model (issue 26, point 5) through the command line: each kind of error a command
// can stop with, run in-process (test/kit/cli.ts), prints one line with its code from the one
// code table and ends with the exit code of that code's row; never a stack trace unless
// FLOWGUARD_DEBUG=1. An error flowguard does not know (a bug) is ERR099, exit 70. The errors that
// never reach a command's end (they become call results, protocol errors or tool errors) are
// thrown by the real module and checked for their code. Every ERR code of the table has its case
// here, as every finding code has its fixtures in test/codes.test.ts.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { callTarget } from '../../src/discovery/meta-tools.js';
import { pageOf } from '../../src/discovery/pages.js';
import { FlowguardError } from '../../src/errors/flowguard-error.js';
import { exchangeError } from '../../src/http/errors.js';
import { resolveReferences } from '../../src/openapi/references.js';
import { CODES, type Code } from '../../src/report/codes.js';
import { CapturedOutput, runFlowguard, type CliOutcome } from '../kit/cli.js';
import { tempProject as kitProject } from '../kit/project.js';
import { keySchema, repoRoute } from '../keylock/keylock-kit.js';
import { tempProject } from '../support/project.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'e2e', 'schemas');
const project = tempProject({ audit: { enabled: false } });
afterAll(() => project.remove());

/** A stack trace's frame line, as Node prints it. */
const STACK_FRAME = /\n\s+at /;

/** What stopped the command: the code on its one `flowguard: CODE ...` line. */
function stoppedWith(outcome: CliOutcome): string | undefined {
  return /^flowguard: ([A-Z]{3}\d{3}) /m.exec(outcome.stderr)?.[1];
}

/** A project folder of its own with `config` as its `.flowmcp/config.json` text. */
function projectWithConfig(text: string): string {
  const dir = tempProject().dir;
  mkdirSync(join(dir, '.flowmcp'));
  writeFileSync(join(dir, '.flowmcp', 'config.json'), text);
  return dir;
}

/** Each ERR code a command stops with: the arguments that stop it, and what its line names. */
const THROUGH_THE_CLI: Partial<Record<Code, { args: () => string[]; names: string }>> = {
  ERR001: {
    args: () => ['list', '--schemas', join(project.dir, 'nowhere'), '--project', project.dir],
    names: 'no such schema file or folder',
  },
  ERR002: {
    args: () => ['list', '--schemas', SCHEMAS, '--project', projectWithConfig('{ "cache": { "enabeld": true } }')],
    names: "unknown key 'enabeld'",
  },
  ERR003: {
    args: () => ['call', 'anything', '--schemas', SCHEMAS, '--project', project.dir, '--upstream', 'nonsense'],
    names: '--upstream nonsense: expected ORIGIN=BASEURL',
  },
  ERR004: {
    args: () => [
      'serve',
      '--transport',
      'http',
      '--port',
      '0',
      '--auth-token',
      'short',
      '--schemas',
      SCHEMAS,
      '--project',
      project.dir,
    ],
    names: 'an auth token must be at least',
  },
  ERR005: {
    args: () => [
      'serve',
      '--transport',
      'http',
      '--port',
      '0',
      '--allow-origin',
      'https://example.com/path',
      '--schemas',
      SCHEMAS,
      '--project',
      project.dir,
    ],
    names: "--allow-origin: allowed origin 'https://example.com/path' must be an origin",
  },
  ERR006: {
    args: () => [
      'import',
      'openapi',
      writeDocument('not-openapi.json', '{ "hello": "world" }'),
      '--out',
      join(project.dir, 'imported'),
    ],
    names: 'is not an OpenAPI or Swagger document',
  },
  ERR011: {
    args: () => [
      'serve',
      '--transport',
      'http',
      '--port',
      '0',
      '--resource',
      'http://127.0.0.1/mcp',
      '--schemas',
      SCHEMAS,
      '--project',
      project.dir,
    ],
    names: 'OAuth needs its issuer: start with --oauth-issuer <url>',
  },
  ERR012: {
    args: () => [
      'serve',
      '--transport',
      'http',
      '--port',
      '0',
      '--schemas',
      SCHEMAS,
      '--project',
      projectWithConfig('{ "identities": { "nobody": { "namespaces": ["e2e"] } } }'),
    ],
    names: 'identities.nobody: names no caller',
  },
  // Before ERR013, the disk's refusal was ERR099 and exit 70: "a bug in flowguard".
  ERR013: {
    args: () => {
      const dir = projectWithLockInTheWay();
      return ['keys', 'accept', '--schemas', join(dir, 'schemas'), '--project', dir];
    },
    names: `${join('.flowmcp', 'keys.lock.json')}: EISDIR`,
  },
};

/**
 * A project whose schema file receives GITHUB_TOKEN (given in its `.env`) and whose lock's place
 * is taken by a folder with a file in it: a lock is read as unusable, and no rename replaces it.
 */
function projectWithLockInTheWay(): string {
  const { dir } = kitProject({
    schemas: { 'victim/repos.mjs': keySchema('victim', 'https://api.victim.test', repoRoute('getRepo')) },
    env: { GITHUB_TOKEN: 'ghp-err013-canary' },
    files: { '.flowmcp/keys.lock.json/taken': 'a file where the lock would go\n' },
  });
  return dir;
}

function writeDocument(name: string, text: string): string {
  const file = join(project.dir, name);
  writeFileSync(file, text);
  return file;
}

describe('an error that stops a command', () => {
  it.each(Object.keys(THROUGH_THE_CLI))(
    '%s: one line with its code and message, its exit code, no stack',
    async (code) => {
      const entry = THROUGH_THE_CLI[code as Code] as { args: () => string[]; names: string };
      const outcome = await runFlowguard(entry.args());
      expect(stoppedWith(outcome), outcome.stderr).toBe(code);
      expect(outcome.code).toBe((CODES[code as Code] as { exit?: number }).exit ?? 1);
      expect(outcome.stderr).toContain(entry.names);
      expect(outcome.stderr).not.toMatch(STACK_FRAME);
      expect(outcome.stdout).toBe('');
    },
  );

  it('ERR002: each config.json problem is a finding with its line, column and did-you-mean', async () => {
    const dir = projectWithConfig(
      '{\n  "cache": { "enabeld": true },\n  "discovery": { "tools": "serch" },\n  "sandbox": { "deadlineMs": 0 }\n}\n',
    );
    const outcome = await runFlowguard(['list', '--schemas', SCHEMAS, '--project', dir]);
    expect(outcome.code).toBe(2);
    const file = join(dir, '.flowmcp', 'config.json');
    expect(outcome.stderr).toContain(
      `CFG002 error ${file}:2:14 cache.enabeld: unknown key 'enabeld'\n    hint: did you mean 'enabled'?`,
    );
    expect(outcome.stderr).toContain(
      `CFG003 error ${file}:3:18 discovery.tools: must be one of auto, search, all\n    hint: did you mean 'search'?`,
    );
    expect(outcome.stderr).toContain(`CFG003 error ${file}:4:16 sandbox.deadlineMs: must be >= 50`);
  });

  it('ERR099: an error flowguard does not know is one line and exit 70; the stack only with FLOWGUARD_DEBUG=1', async () => {
    // A stdout that fails as a closed pipe does: no command expects it.
    const broken = {
      write: () => {
        throw new TypeError('the pipe is gone');
      },
    };
    for (const debug of [false, true]) {
      const stderr = new CapturedOutput();
      const code = await runCli(['--version'], { stdout: broken, stderr, env: debug ? { FLOWGUARD_DEBUG: '1' } : {} });
      expect(code).toBe(70);
      expect(stderr.text).toMatch(
        /^flowguard: ERR099 internal error: TypeError: the pipe is gone \(a bug in flowguard: please report it with the command you ran[^\n]*\)\n/,
      );
      if (debug) expect(stderr.text).toMatch(STACK_FRAME);
      else expect(stderr.text.split('\n')).toEqual([expect.stringContaining('FLOWGUARD_DEBUG=1 prints the stack'), '']);
    }
  });
});

describe('an error that never ends a command', () => {
  /** Each of these becomes a call result, a protocol error or a tool error; the module throws it with its code. */
  const THROWN: Partial<Record<Code, () => unknown>> = {
    // A document that is no tree: a YAML alias inside itself.
    ERR007: () => {
      const inside: Record<string, unknown> = {};
      inside.self = inside;
      return resolveReferences({ openapi: '3.0.0', paths: { '/a': inside } });
    },
    ERR008: () => {
      throw exchangeError(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
        'http://127.0.0.1:1',
        { connectTimeoutMs: 1000, totalTimeoutMs: 1000, maxHeaderBytes: 1024 },
      );
    },
    ERR009: () => pageOf(['a', 'b'], 'not-a-cursor', 1),
    ERR010: () => callTarget({ name: 7 }),
  };

  it.each(Object.keys(THROWN))('%s is thrown as a FlowguardError with that code', (code) => {
    const thrown = (() => {
      try {
        (THROWN[code as Code] as () => unknown)();
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(FlowguardError);
    expect((thrown as FlowguardError).code).toBe(code);
    expect((thrown as FlowguardError).exitCode).toBe(1);
  });

  it('every ERR code of the table has its case in this file', () => {
    const covered = new Set([...Object.keys(THROUGH_THE_CLI), ...Object.keys(THROWN), 'ERR099']);
    expect(Object.keys(CODES).filter((code) => code.startsWith('ERR') && !covered.has(code))).toEqual([]);
  });
});
