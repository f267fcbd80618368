// The config keys of the upstream guard and of Redis: a wrong value stops the command with a
// message naming the key (config-shape.ts).

import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadProjectConfig } from '../../src/config/project.js';
import { tempProject } from '../kit/project.js';

const projects: Array<{ remove: () => void }> = [];
afterAll(() => projects.forEach((project) => project.remove()));

function problem(config: unknown): string {
  const project = tempProject({ config });
  projects.push(project);
  try {
    loadProjectConfig(project.dir);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  return '';
}

describe('upstreamLimits and redis in the config', () => {
  it('names the key of a wrong value', () => {
    expect(problem({ upstreamLimits: { origins: { 'https://api.example.com': { requestsPerSecond: 0 } } } })).toContain(
      'upstreamLimits.origins["https://api.example.com"].requestsPerSecond: must be > 0',
    );
    expect(problem({ upstreamLimits: { default: { rate: 5 } } })).toContain(
      "upstreamLimits.default.rate: unknown key 'rate'",
    );
    expect(problem({ upstreamLimits: { maxPauseSeconds: -1 } })).toContain(
      'upstreamLimits.maxPauseSeconds: must be >= 0',
    );
    expect(problem({ redis: { url: 'localhost:6379' } })).toContain('redis.url: must be a redis:// or rediss:// URL');
  });

  it('a valid config passes', () => {
    expect(
      problem({
        upstreamLimits: { default: { concurrency: 0 }, namespaces: { ns: { requestsPerSecond: 2.5, burst: 10 } } },
        redis: { url: 'rediss://:secret@redis.internal:6380/1' },
      }),
    ).toBe('');
  });
});
