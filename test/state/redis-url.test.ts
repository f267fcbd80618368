// Issue 23, point 11g: `flowguard serve` never prints the password of a Redis URL, whether the URL
// is refused (not redis://, or not a URL at all, from --redis or redis.url) or used (the log line
// naming where the shared state is, the warning when Redis does not answer). Run as an operator
// runs it: the CLI in a child process, stdin closed so that a server that starts stops at once.

import { afterEach, describe, expect, it } from 'vitest';
import { maskedUrl } from '../../src/shared/masked-url.js';
import { tempProject } from '../kit/project.js';
import { runFlowguard, type CliRun } from '../kit/spawn.js';
import { REDIS_INSTALLED, startRedis } from './redis-server.js';
const PASSWORD = 's3cret-Pa55word';

const removes: Array<() => void> = [];
afterEach(() => {
  for (const remove of removes.splice(0)) remove();
});

function serve(args: string[], config?: unknown): Promise<CliRun> {
  const project = tempProject({ config, schemas: {} });
  removes.push(project.remove);
  return runFlowguard(['serve', '--schemas', project.schemas, '--project', project.dir, ...args]);
}

describe('a Redis URL is never printed with its password', () => {
  it('a --redis URL refused for its scheme: the usage error masks the password', async () => {
    const { code, stderr } = await serve(['--redis', `http://user:${PASSWORD}@cache.internal:6379`]);
    expect(code).toBe(2);
    expect(stderr).toContain('--redis must be a redis:// or rediss:// URL');
    expect(stderr).toContain('http://user:***@cache.internal:6379');
    expect(stderr).not.toContain(PASSWORD);
  });

  it.each([
    ['--redis', (url: string) => ({ args: ['--redis', url] })],
    ['redis.url', (url: string) => ({ args: [], config: { redis: { url } } })],
  ])('a %s that is no URL at all: a usage error without the password, no stack', async (where, make) => {
    const { args, config } = make(`redis://user:${PASSWORD}@cache.internal:port`) as {
      args: string[];
      config?: unknown;
    };
    const { code, stderr } = await serve(args, config);
    expect(code).toBe(2);
    expect(stderr).toContain(`${where} is not a URL: 'redis://***@cache.internal:port'`);
    expect(stderr).not.toContain(PASSWORD);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a Redis that does not answer: the log lines name it without the password', async () => {
    const { code, stderr } = await serve(['--redis', `redis://:${PASSWORD}@127.0.0.1:1`]);
    expect(code).toBe(0);
    expect(stderr).toContain('redis is not answering');
    expect(stderr).not.toContain(PASSWORD);
  });

  // An eleventh review: ioredis also reads the credentials from the query (`?password=`, and
  // `username`), with the names percent-decoded; a URL so written was logged with its password.
  it('a --redis URL with the password in its query, refused: the usage error masks it', async () => {
    const { code, stderr } = await serve(['--redis', `http://cache.internal:6379/0?password=${PASSWORD}`]);
    expect(code).toBe(2);
    expect(stderr).toContain('--redis must be a redis:// or rediss:// URL');
    expect(stderr).not.toContain(PASSWORD);
  });

  it.skipIf(!REDIS_INSTALLED)(
    'a Redis URL with the password in its query, used: the line naming the shared state masks it',
    async () => {
      const redis = await startRedis();
      try {
        const { code, stderr } = await serve(['--redis', `${redis.url}/0?password=${PASSWORD}&family=4`]);
        expect(code).toBe(0);
        expect(stderr).toContain('shared state in redis at');
        expect(stderr).not.toContain(PASSWORD);
      } finally {
        await redis.kill();
      }
    },
  );

  it('masks credentials a Redis client reads from the query, however their names are spelled', () => {
    expect(maskedUrl(`redis://h:6379/0?password=${PASSWORD}`)).toBe('redis://h:6379/0?password=***');
    expect(maskedUrl(`redis://h:6379/0?family=4&pass%77ord=${PASSWORD}`)).not.toContain(PASSWORD);
    expect(maskedUrl(`redis://h:6379/0?username=${PASSWORD}&db=1`)).not.toContain(PASSWORD);
    expect(maskedUrl(`redis://h:6379/0?family=4`)).toBe('redis://h:6379/0?family=4');
    // A text that does not parse: its query is masked whole.
    expect(maskedUrl(`redis://h:port/0?password=${PASSWORD}`)).not.toContain(PASSWORD);
  });

  it('masks the password, or a lone user name, of URLs that parse and of texts that do not', () => {
    expect(maskedUrl(`redis://:${PASSWORD}@h:6379/0`)).toBe('redis://:***@h:6379/0');
    expect(maskedUrl(`rediss://${PASSWORD}@h`)).toBe('rediss://***@h');
    expect(maskedUrl('redis://h:6379')).toBe('redis://h:6379');
    // Parsed as an opaque URL of scheme `user:`, with no user information to mask: masked as text.
    expect(maskedUrl(`user:${PASSWORD}@h:6379`)).toBe('user:***@h:6379');
    expect(maskedUrl(`not a url ${PASSWORD}@@h`)).toBe('***@h');
  });
});
