// The deployment files of deploy/ (issue 28, point 4), checked as far as this machine allows
// (there is no container runtime here): the compose file and the Kubernetes manifest parse and
// fit together; the Dockerfile's instructions are sane; the HAProxy config compose mounts is the
// one test/deploy/balancer.test.ts runs, and `haproxy -c` accepts it; every flag the files give
// `flowguard serve` is one it has; and the image's own command, run natively, serves every path
// the probes and health checks ask for.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { BIN, ROOT } from '../mcp/helpers.js';
import { tempProject } from '../support/project.js';
import { balancerEnv, checkConfig, HAPROXY, HAPROXY_CONFIG, HAPROXY_MISSING } from './haproxy.js';
import { startReplica, type Replica } from './replicas.js';

if (!HAPROXY) console.warn(HAPROXY_MISSING);

const DEPLOY = join(ROOT, 'deploy');
const read = (file: string) => readFileSync(join(DEPLOY, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

/** A Dockerfile's instructions: comments dropped, continued lines joined, keywords upper-cased. */
function dockerInstructions(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | null = null;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (pending === null && (line === '' || line.startsWith('#'))) return;
    if (pending !== null && line.startsWith('#')) return;
    const continued = line.endsWith('\\');
    const part = continued ? line.slice(0, -1).trim() : line;
    pending =
      pending === null ? { text: part, line: index + 1 } : { text: `${pending.text} ${part}`, line: pending.line };
    if (continued) return;
    const [keyword = '', ...rest] = pending.text.split(/\s+/);
    instructions.push({ keyword: keyword.toUpperCase(), args: rest.join(' '), line: pending.line });
    pending = null;
  });
  return instructions;
}

/** The stages of a Dockerfile, each with its instructions after FROM. */
function dockerStages(instructions: Instruction[]): Array<{ name?: string; from: string; body: Instruction[] }> {
  const stages: Array<{ name?: string; from: string; body: Instruction[] }> = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [from = '', as, name] = instruction.args.split(/\s+/);
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, body: [] });
    } else stages.at(-1)?.body.push(instruction);
  }
  return stages;
}

/** The options `flowguard serve --help` lists. */
function serveOptions(): Set<string> {
  const help = spawnSync(process.execPath, [BIN, 'serve', '--help'], { encoding: 'utf8' });
  expect(help.status, help.stderr).toBe(0);
  return new Set([...help.stdout.matchAll(/^\s+(--[a-z-]+)/gm)].map((match) => match[1] as string));
}

/** The value following `flag` in an argument list. */
const flagValue = (args: readonly string[], flag: string) => args[args.indexOf(flag) + 1];

const dockerfile = dockerInstructions(read('Dockerfile'));
const stages = dockerStages(dockerfile);
const image = stages.at(-1) as (typeof stages)[number];
const only = (keyword: string) => image.body.filter((instruction) => instruction.keyword === keyword);
const imageCommand = JSON.parse(only('CMD').at(-1)?.args ?? 'null') as string[];
const compose = parse(read('compose.yaml')) as {
  services: Record<
    string,
    {
      image?: string;
      build?: { context: string; dockerfile: string };
      command?: string[];
      volumes?: string[];
      ports?: string[];
      depends_on?: Record<string, { condition: string }>;
      healthcheck?: unknown;
      environment?: Record<string, string>;
    }
  >;
};
const manifests = parseAllDocuments(read('kubernetes/flowguard.yaml')).map((document) => {
  expect(document.errors).toEqual([]);
  return document.toJS() as {
    kind: string;
    metadata: { name: string; labels?: Record<string, string> };
    spec: Record<string, unknown>;
  };
});
type Probe = { httpGet: { path: string; port: string } };
type Container = {
  args: string[];
  ports: Array<{ name: string; containerPort: number }>;
  readinessProbe: Probe;
  livenessProbe: Probe;
  startupProbe: Probe;
};
const deployment = manifests.find(
  (manifest) => manifest.kind === 'Deployment' && manifest.metadata.name === 'flowguard',
);
const service = manifests.find((manifest) => manifest.kind === 'Service' && manifest.metadata.name === 'flowguard');
const pod = deployment?.spec.template as {
  metadata: { labels: Record<string, string> };
  spec: { containers: Container[]; securityContext: { runAsNonRoot: boolean } };
};
const container = pod.spec.containers[0] as Container;
const haproxyConfig = readFileSync(HAPROXY_CONFIG, 'utf8');
/** The default of one of the config's `"${NAME-default}"` values: compose runs it with no environment. */
const configDefault = (name: string) => new RegExp(`\\$\\{${name}-([^}]*)\\}`).exec(haproxyConfig)?.[1];

describe('deploy/Dockerfile', () => {
  it('is instructions Docker knows, with every stage it copies from or starts from defined before', () => {
    const known = new Set([
      'FROM',
      'ARG',
      'ENV',
      'WORKDIR',
      'COPY',
      'RUN',
      'USER',
      'EXPOSE',
      'HEALTHCHECK',
      'ENTRYPOINT',
      'CMD',
      'LABEL',
    ]);
    for (const instruction of dockerfile)
      expect(known.has(instruction.keyword), `line ${instruction.line}: ${instruction.keyword}`).toBe(true);
    const globalArgs = new Map<string, string>();
    for (const instruction of dockerfile) {
      if (instruction.keyword === 'FROM') break;
      const [name = '', value = ''] = instruction.args.split('=');
      if (instruction.keyword === 'ARG') globalArgs.set(name, value);
    }
    const named = new Set<string>();
    for (const stage of stages) {
      const from = stage.from.replace(
        /^\$\{(\w+)\}$/,
        (_all, name: string) => globalArgs.get(name) ?? `(no default for ${name})`,
      );
      // An image (with a tag: no floating `latest`), `scratch`, or a stage defined above.
      expect(named.has(from) || from === 'scratch' || /^[a-z0-9./-]+:[\w.-]+$/.test(from), `FROM ${stage.from}`).toBe(
        true,
      );
      for (const copy of stage.body.filter((instruction) => instruction.keyword === 'COPY')) {
        const source = /--from=(\S+)/.exec(copy.args)?.[1];
        if (source !== undefined) expect(named.has(source), `line ${copy.line}: COPY --from=${source}`).toBe(true);
      }
      if (stage.name) named.add(stage.name);
    }
    // Nothing fetched from the network by ADD: what goes in is what the context holds.
    expect(dockerfile.filter((instruction) => instruction.keyword === 'ADD')).toEqual([]);
  });

  it('runs the installed flowguard as an unprivileged user, with a health check on readiness at the port it serves', () => {
    const user = only('USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(JSON.parse(only('ENTRYPOINT').at(-1)?.args ?? 'null')).toEqual(['flowguard']);
    expect(imageCommand.slice(0, 3)).toEqual(['serve', '--transport', 'http']);
    const port = flagValue(imageCommand, '--port');
    expect(only('EXPOSE').map((instruction) => instruction.args)).toEqual([port]);
    expect(only('HEALTHCHECK').at(-1)?.args).toContain(`http://127.0.0.1:${port}/readyz`);
    // The image installs the packed tarball, not a checkout's node_modules.
    expect(
      image.body.some(
        (instruction) =>
          instruction.keyword === 'RUN' && /npm install --global .*flowguard\.tgz/.test(instruction.args),
      ),
    ).toBe(true);
  });

  it("has a .dockerignore that keeps the checkout's installs and secrets out of the build context", () => {
    const ignored = read('Dockerfile.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    for (const entry of ['node_modules', 'dist', '.env', '.git']) expect(ignored).toContain(entry);
  });
});

describe('deploy/compose.yaml', () => {
  const { services } = compose;
  const replicas = ['replica1', 'replica2'].map((name) => services[name]);

  it('runs two replicas of the image, Redis, and HAProxy with the config the balancer test runs', () => {
    expect(Object.keys(services).sort()).toEqual(['balancer', 'redis', 'replica1', 'replica2']);
    for (const replica of replicas) {
      expect(replica?.build?.dockerfile).toBe('deploy/Dockerfile');
      expect(existsSync(join(DEPLOY, replica?.build?.context ?? '', replica?.build?.dockerfile ?? ''))).toBe(true);
      expect(replica?.depends_on?.redis?.condition).toBe('service_healthy');
    }
    const mount = services.balancer?.volumes?.[0]?.split(':') ?? [];
    expect(resolve(DEPLOY, mount[0] as string)).toBe(HAPROXY_CONFIG);
    expect(mount[1]).toBe('/usr/local/etc/haproxy/haproxy.cfg');
    expect(services.balancer?.depends_on?.replica1?.condition).toBe('service_healthy');
    expect(services.balancer?.depends_on?.replica2?.condition).toBe('service_healthy');
  });

  it("wires the replicas to the Redis service, the balancer to the replicas' port, and publishes the port the balancer binds", () => {
    for (const replica of replicas) {
      const command = replica?.command ?? [];
      expect(command.slice(0, 3)).toEqual(['serve', '--transport', 'http']);
      expect(new URL(flagValue(command, '--redis') as string).hostname).toBe('redis');
      expect(replica?.environment?.FLOWGUARD_AUTH_TOKEN).toMatch(/^\$\{FLOWGUARD_AUTH_TOKEN:\?/);
      for (const name of ['FLOWGUARD_REPLICA1', 'FLOWGUARD_REPLICA2']) {
        const [host, port] = (configDefault(name) as string).split(':');
        expect(Object.keys(services)).toContain(host);
        expect(port).toBe(flagValue(command, '--port'));
      }
    }
    const bindPort = (configDefault('FLOWGUARD_LB_BIND') as string).split(':').at(-1);
    expect(services.balancer?.ports?.map((port) => port.split(':').at(-1))).toEqual([bindPort]);
  });
});

describe('deploy/kubernetes/flowguard.yaml', () => {
  it('has a Deployment of two replicas probed for readiness and liveness on the port it serves, as a non-root user', () => {
    expect(deployment?.spec.replicas).toBe(2);
    expect(pod.spec.securityContext.runAsNonRoot).toBe(true);
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    const port = container.ports.find((entry) => entry.name === container.readinessProbe.httpGet.port);
    expect(String(port?.containerPort)).toBe(flagValue(container.args, '--port'));
    expect(container.livenessProbe.httpGet.port).toBe(port?.name);
  });

  it('has a Service that selects those pods and a Redis Service the replicas are pointed at', () => {
    const selector = (service?.spec.selector ?? {}) as Record<string, string>;
    expect(Object.keys(selector).length).toBeGreaterThan(0);
    for (const [label, value] of Object.entries(selector)) expect(pod.metadata.labels[label]).toBe(value);
    expect((service?.spec.ports as Array<{ targetPort: string }>)[0]?.targetPort).toBe(container.ports[0]?.name);
    const redisHost = new URL(flagValue(container.args, '--redis') as string).hostname;
    expect(manifests.some((manifest) => manifest.kind === 'Service' && manifest.metadata.name === redisHost)).toBe(
      true,
    );
  });
});

describe('what the files ask of flowguard', () => {
  it('every flag they give `flowguard serve` is one it has', () => {
    const known = serveOptions();
    const commands = [
      imageCommand,
      ...['replica1', 'replica2'].map((name) => compose.services[name]?.command ?? []),
      container.args,
    ];
    for (const command of commands) {
      expect(command[0]).toBe('serve');
      const flags = command.filter((arg) => arg.startsWith('--'));
      expect(flags.length).toBeGreaterThan(3);
      for (const flag of flags) expect(known.has(flag), `${flag} in ${command.join(' ')}`).toBe(true);
    }
    // The check can fail: a flag serve lacks is not among them.
    expect(known.has('--replicas')).toBe(false);
  });

  it.skipIf(!HAPROXY)("haproxy -c accepts the balancer config with the test's environment", () => {
    const checked = checkConfig(HAPROXY_CONFIG, balancerEnv(18080, ['127.0.0.1:18081', '127.0.0.1:18082']));
    expect(checked.valid, checked.output).toBe(true);
    expect(checked.output).not.toMatch(/WARNING|ALERT/);
  });

  describe("the image's command, run natively", () => {
    let replica: Replica;
    let project: { dir: string; remove: () => void };

    beforeAll(async () => {
      project = tempProject();
      mkdirSync(join(project.dir, 'schemas'));
      writeFileSync(
        join(project.dir, 'schemas', 'probe.mjs'),
        `export const main = { namespace: 'probe', name: 'Probe', description: 'A catalog to probe.', version: '2.0.0', root: 'https://api.probe.test',
  routes: { get: { method: 'GET', path: '/', description: 'Nothing much.', parameters: [], tests: [{ _description: 'get' }] } } };\n`,
      );
      // The image's CMD as it is, but on loopback, a free port and the temp project's folders.
      const replaced: Record<string, string> = {
        '--host': '127.0.0.1',
        '--port': '0',
        '--schemas': join(project.dir, 'schemas'),
        '--project': project.dir,
      };
      const args = imageCommand.slice(1).map((arg, i, all) => replaced[all[i - 1] as string] ?? arg);
      replica = await startReplica(args, { FLOWGUARD_AUTH_TOKEN: 'a-token-of-sixteen-chars-or-more' });
    }, 60_000);

    afterAll(async () => {
      await replica?.stop();
      project?.remove();
    });

    it('answers every path the Dockerfile, the Kubernetes probes and HAProxy ask, without a token', async () => {
      const probes = new Set<string>();
      for (const url of (only('HEALTHCHECK').at(-1)?.args ?? '').matchAll(/http:\/\/[^/]+(\/[a-z]+)/g))
        probes.add(url[1] as string);
      for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe'] as const)
        probes.add(container[probe].httpGet.path);
      probes.add(/option httpchk GET (\S+)/.exec(haproxyConfig)?.[1] as string);
      expect([...probes].sort()).toEqual(['/healthz', '/readyz']);
      for (const path of probes) expect((await fetch(`http://${replica.address}${path}`)).status, path).toBe(200);
      // The check can fail: a path flowguard does not serve is a 404.
      expect((await fetch(`http://${replica.address}/ready`)).status).toBe(404);
    });
  });
});
