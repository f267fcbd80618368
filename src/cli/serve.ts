// `flowguard serve`: every visible tool of the catalog (or of one verified group) as an MCP
// server, over stdio or Streamable HTTP; over HTTP without --group also each verified group of
// groups.json at `/mcp/<group>` (serve-groups.ts; not under --watch, which serves `/mcp` only). At start one summary goes to stderr (loaded, served, hidden, rejected); for
// HTTP also the URL and how to connect. stdout belongs to the protocol in stdio mode, so nothing
// else is ever printed there. SIGINT and SIGTERM close the server, the sandbox and the HTTP
// client, then the process exits 0. The flags are defined in serve-flags.ts.

import { createServer as createNetServer } from 'node:net';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { LiveCatalog } from '../mcp/live-catalog.js';
import { ClosingOrder, createServer, type Server } from '../runtime/server.js';
import type { Catalog } from '../runtime/catalog.js';
import { groupsFilePath, readGroupsFile } from '../groups/groups-file.js';
import type { Tool } from '../catalog/tools.js';
import { AccessGate, AUTH_TOKEN_ENV, isLoopback } from '../edge/auth.js';
import type { ServerMetrics } from '../observe/metrics.js';
import type { SandboxEvent } from '../sandbox/events.js';
import { loadProjectConfig, type ProjectConfig } from '../config/project.js';
import { MemoryState } from '../state/memory-state.js';
import { openSharedState } from '../state/open-state.js';
import type { SharedState } from '../state/shared-state.js';
import { DEFAULT_ALLOWED_ORIGINS, DEFAULT_PATH, parseOriginPattern } from '../edge/origins.js';
import { connectHelp, loadCounts, loadSummary, oauthConnectHelp } from './serve-summary.js';
import { ServeOutput } from './serve-output.js';
import { formatFinding, terminalText } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { recordCommand } from './group.js';
import { listsFolderOf } from '../project/checker.js';
import type { ServedPrompt } from '../prompts/served.js';
import { groupEndpoints, servedCount, servedLine, verifyGroup } from './serve-groups.js';
import { prepareIndexes } from './serve-index.js';
import { selectionsFolder } from '../selections/verify.js';
import { exists, openCatalog } from './shared.js';
import { UsageError } from '../errors/flowguard-error.js';
import { watchCatalog, type CatalogWatch } from './watch.js';
import { observeServe, type ServeObserver } from './serve-observe.js';
import { maskedUrl } from '../shared/masked-url.js';
import { chooseMode } from '../discovery/mode.js';
import { prepareOAuth, type OAuthPrepared } from '../access/setup.js';
import { Identities } from '../access/identities.js';
import type { ToolsSetting } from '../config/project.js';
import { cli } from './io.js';
import { defineServe, integerFlag, type ServeFlags } from './serve-flags.js';

/** Group findings that recording the group again resolves: a tool, a file, a list or a library changed, or no content record. */
const RERECORD_CODES = new Set(['GRP006', 'GRP008', 'GRP009']);

export function registerServe(program: Command): void {
  defineServe(program).action((flags: ServeFlags) => runServe(flags));
}

async function runServe(flags: ServeFlags): Promise<void> {
  const transport = flags.transport;
  if (transport !== 'stdio' && transport !== 'http')
    throw new UsageError(`--transport must be stdio or http, not '${transport}'`);
  const port = integerFlag('--port', flags.port, 0, 65535);
  const maxResultChars = integerFlag('--max-result-chars', flags.maxResultChars, 1, Number.MAX_SAFE_INTEGER);
  const flagPageSize = flags.pageSize === undefined ? undefined : integerFlag('--page-size', flags.pageSize, 1, 100000);
  // A group is served as reviewed and recorded; an edit fails its verification until recorded again.
  if (flags.watch && flags.group !== undefined)
    throw new UsageError(
      '--watch cannot serve a --group: a group serves the files as recorded; after an edit, record the group again and restart',
    );
  if (flags.tools !== undefined && !['auto', 'search', 'all'].includes(flags.tools))
    throw new UsageError(`--tools must be auto, search or all, not '${flags.tools}'`);
  if (flags.redis !== undefined && !/^rediss?:\/\//.test(flags.redis))
    throw new UsageError(`--redis must be a redis:// or rediss:// URL, not '${maskedUrl(flags.redis)}'`);
  const allowedOrigins = [...DEFAULT_ALLOWED_ORIGINS, ...flags.allowOrigin];
  // A pattern that is no origin stops here (ERR005, exit 2 as for any usage error).
  for (const pattern of flags.allowOrigin) parseOriginPattern(pattern, '--allow-origin');

  const project = loadProjectConfig(flags.project);
  // An identity's groups are verified once, at start, as --group is: a reload would hand it their files edited.
  const groupedIdentities = Object.entries(project.identities).filter(([, identity]) => identity.groups?.length);
  if (flags.watch && transport === 'http' && groupedIdentities.length > 0)
    throw new UsageError(
      `--watch cannot serve an identity's groups (${groupedIdentities.map(([name, identity]) => `identities.${name}: ${identity.groups?.join(', ')}`).join('; ')}): a group serves the files as recorded; serve them without --watch`,
    );
  const redisUrl = flags.redis ?? project.redis.url;
  // ioredis would throw its own error, the URL and its password in it, from deep inside.
  if (redisUrl !== undefined && !URL.canParse(redisUrl))
    throw new UsageError(
      `${flags.redis === undefined ? 'redis.url' : '--redis'} is not a URL: '${maskedUrl(redisUrl)}' (redis://[:password@]host:port[/db])`,
    );
  // Who may call is settled before anything loads: a server that may not start stops here.
  const oauth = transport === 'http' ? await oauthOf(flags, project) : undefined;
  const access = transport === 'http' ? accessGate(flags, project, oauth !== undefined) : undefined;
  // A taken port is said before the catalog loads, not after (a large catalog takes seconds).
  if (transport === 'http') await checkPortFree(flags.host, port);

  // The chosen transport's modules load while the catalog does (the MCP SDK is about a quarter
  // of a second): start-up time is the client's wait. createServer finds them loaded.
  void (transport === 'stdio' ? import('../mcp/stdio.js') : import('../edge/http.js')).catch(() => undefined);
  // Logs and the audit log are set up first: a bad setting stops the start before anything loads.
  const observer = observeServe(project, flags);
  // Everything opened from here on is closed in one order, the last opened first, on every way out.
  const opened = new ClosingOrder();
  opened.add(observer);
  // Over HTTP, /metrics counts sandbox restarts too. Every catalog, also one a reload brings, is opened with these options.
  const metrics = transport === 'http' ? serveMetrics(() => observer.auditDropped()) : undefined;
  const logSandboxEvent = observer.catalogOptions.sandbox?.onEvent;
  observer.catalogOptions.sandbox = {
    ...observer.catalogOptions.sandbox,
    onEvent: (event) => {
      logSandboxEvent?.(event);
      metrics?.sandboxEvent(event);
    },
  };
  // Rate buckets, pauses and the cache: in Redis with --redis (or redis.url), shared by replicas; one for every catalog loaded.
  // In memory (and as Redis's fallback) the cache keeps at most cache.maxEntries answers.
  const memory = new MemoryState({ maxCacheEntries: project.cache.maxEntries });
  const state = opened.add(await openSharedState({ ...project.redis, url: redisUrl }, observer.logger, memory));
  observer.catalogOptions.state = state;
  const catalog = await openCatalog(flags, { cache: flags.cache, ...observer.catalogOptions }, 'file or folder').catch(
    async (error: unknown) => {
      // What was logged so far (lines wait up to 100 ms) is written before the command stops.
      await opened.close();
      throw error;
    },
  );
  // What the servers read per request: this catalog, or under --watch the latest one loaded.
  const live = opened.add(new LiveCatalog(catalog));
  observer.attach(catalog);
  // The summary and log lines go to the run's stderr (stdio's protocol keeps the process's stdout).
  const { stderr } = cli();
  // In JSON (--log-format json) every line is a log entry: what a person reads goes through `out`.
  const out = new ServeOutput(observer.format, (line) => void stderr.write(`${line}\n`), observer.logger);
  let tools: Tool[] | undefined;
  let prompts: ServedPrompt[] | undefined;
  const groupSource = {
    project: flags.project,
    maxFileBytes: project.limits.maxFileBytes,
    selections: selectionsFolder(flags.schemas),
  };
  if (flags.group !== undefined) {
    const verdict = verifyGroup(catalog, groupSource, flags.group);
    if (!verdict.ok) {
      // A group that does not verify is not served in part: the operator reviewed it as a whole.
      const rerecord = verdict.errors.some((f) => RERECORD_CODES.has(f.code))
        ? { rerecord: recordCommand(flags.group, flags) }
        : {};
      out.say(
        `flowguard: group '${flags.group}' cannot be served (\`flowguard group verify ${flags.group}\` explains):`,
        'error',
        'group cannot be served',
        { group: flags.group, findings: verdict.errors.map(formatFinding), ...rerecord },
      );
      for (const finding of verdict.errors) {
        out.text(`  ${formatFinding(finding)}`);
        // The hint is the way on (the groups the file has, the command that records one).
        if (finding.hint) out.text(terminalText(`      hint: ${finding.hint}`));
      }
      if (rerecord.rerecord)
        out.text(`flowguard: once the change is reviewed, record the group again: ${rerecord.rerecord}`);
      await opened.close();
      cli().exitCode = 1;
      return;
    }
    out.say(loadSummary(catalog), 'info', 'catalog loaded', loadCounts(catalog));
    tools = verdict.tools;
    // A group prompt that cannot be read is left out and said why; the group's tools are served.
    prompts = verdict.prompts;
    for (const finding of verdict.promptFindings)
      out.say(`  ${formatFinding(finding)}`, 'warn', 'prompt not served', { finding: formatFinding(finding) });
    out.say(`flowguard: group ${flags.group}: ${servedLine(tools)}`, 'info', 'group served', {
      group: flags.group,
      tools: tools.length,
      served: servedCount(tools).served,
    });
  }
  if (flags.group === undefined) out.say(loadSummary(catalog), 'info', 'catalog loaded', loadCounts(catalog));
  const { served, alwaysLoad } = servedCount(tools ?? catalog.tools);
  const pageSize = flagPageSize ?? project.discovery.pageSize;
  const toolsSetting = (flags.tools as ToolsSetting | undefined) ?? project.discovery.tools;
  const { mode: discovery, line: modeLine } = chooseMode(
    toolsSetting,
    served,
    alwaysLoad,
    project.discovery.searchAbove,
  );
  out.say(modeLine, 'info', 'tools listed', { listing: discovery, setting: toolsSetting, served });
  // Over HTTP every group of groups.json is an endpoint of its own, verified now (under --watch
  // none: a group serves its files as recorded, and a reload would serve them edited).
  const withEndpoints = transport === 'http' && flags.group === undefined;
  const endpoints =
    withEndpoints && !flags.watch
      ? groupEndpoints(catalog, groupSource, DEFAULT_PATH, toolsSetting, project.discovery.searchAbove)
      : { endpoints: [], lines: [] };
  out.endpoints(endpoints.lines, endpoints.endpoints, DEFAULT_PATH);
  const unwatched = withEndpoints && flags.watch ? readGroupsFile(groupsFilePath(flags.project)).groups.length : 0;
  if (unwatched > 0)
    out.say(
      `flowguard: --watch serves ${DEFAULT_PATH} only: the ${plural(unwatched, 'group')} of ${groupsFilePath(flags.project)} get no endpoint (a group serves its files as recorded; serve them without --watch)`,
      'warn',
      'group endpoints not served under --watch',
      { groups: unwatched, file: groupsFilePath(flags.project) },
    );

  // Argument validators compile in the background so that first calls do not pay for them;
  // a second later, so that the slices do not hold up the client's initialize and tools/list
  // (started at once, they delay the first tools/list by about 0.2 s on 1,400 tools).
  setTimeout(() => catalog.warmUp(), 1000).unref();
  // Listening for signals before the server says it is up: a client (or test) that stops the
  // server as soon as it reads that line must meet the handler, not the default exit.
  const signalled = new Promise<NodeJS.Signals>((resolveSignal) => {
    process.once('SIGINT', () => resolveSignal('SIGINT'));
    process.once('SIGTERM', () => resolveSignal('SIGTERM'));
  });
  // Discovery's indexes are built in the background, and again after every change of the tools, so that no search waits for one.
  const indexed = endpoints.endpoints.flatMap((endpoint) =>
    'serving' in endpoint && endpoint.serving.discovery === 'search'
      ? [{ tools: endpoint.serving.tools, group: endpoint.name }]
      : [],
  );
  prepareIndexes(live, discovery === 'search' ? [{ tools }, ...indexed] : indexed, observer.logger);
  // Watching before serving: once a client is answered, a change it makes is seen.
  if (flags.watch) opened.add(await watchFolders(live, flags, observer));
  const serve = { maxResultChars, log: out.running, logger: observer.logger, tools, prompts, discovery, pageSize };
  let server: Server;
  try {
    server = await createServer(
      transport === 'stdio'
        ? { catalog: live, transport, serve, opened }
        : {
            catalog: live,
            transport,
            opened,
            serve: {
              ...serve,
              host: flags.host,
              port,
              allowedOrigins,
              sessions: flags.sessions,
              sessionRecords: flags.sessions ? state.sessions : null,
              access,
              metrics: await metrics?.made,
              groups: endpoints.endpoints,
              oauth,
              identities: identitiesOf(project, catalog, groupSource, state),
            },
          },
    );
  } catch (error) {
    // createServer closes what was opened when it fails; this also covers the metrics failing to load before it ran.
    await opened.close().catch(() => undefined);
    throw listenError(error, flags.host, port);
  }
  if (server.url === undefined)
    out.say(`flowguard: serving ${plural(served, 'tool')} over stdio`, 'info', 'serving', {
      transport,
      tools: served,
    });
  else {
    // The warning first: instructions printed after it would scroll it out of sight.
    if (!isLoopback(flags.host))
      out.say(
        `flowguard: warning: listening on ${flags.host}, not loopback: anyone who can reach this address and holds a token can call every tool. Tokens travel in clear over plain HTTP; put TLS in front (a proxy or load balancer).`,
        'warn',
        'listening beyond loopback; put TLS in front',
        { host: flags.host },
      );
    const focused = endpoints.endpoints.filter((endpoint) => 'serving' in endpoint);
    const caller = oauth && server.resource ? 'oauth' : access?.requiresToken ? 'token' : 'none';
    out.say(
      oauth && server.resource
        ? oauthConnectHelp(server.url, served, flags, { issuer: oauth.issuer, resource: server.resource }, focused)
        : connectHelp(server.url, served, flags, access?.requiresToken ?? false, focused),
      'info',
      'serving',
      { transport, url: server.url, tools: served, sessions: flags.sessions === true, auth: caller },
    );
  }

  const why = await Promise.race([signalled, server.ended.then(() => 'stdin closed' as const)]);
  out.say(`flowguard: ${why}, shutting down`, 'info', 'shutting down', { reason: why });
  await server.close();
  cli().exitCode = 0;
}

/** `--watch`: the schema path and the lists folder (where there is one), reloaded on change. */
async function watchFolders(
  live: LiveCatalog<Catalog>,
  flags: ServeFlags,
  observer: ServeObserver,
): Promise<CatalogWatch> {
  const paths = [flags.schemas, listsFolderOf(flags)].filter(exists).map((path) => resolve(path));
  const load = async (previous: Catalog) => {
    const next = await openCatalog(flags, { cache: flags.cache, previous, ...observer.catalogOptions });
    observer.attach(next);
    next.warmUp();
    return next;
  };
  const watching = await watchCatalog(live, { paths, load, logger: observer.logger });
  // Said once the folders have been read: a change from now on is seen.
  observer.logger.info({ paths }, 'watching for changes');
  return watching;
}

/**
 * What `/metrics` shows, made once its module has loaded (prom-client takes about 0.2 s; it loads
 * with the HTTP module, while the catalog does). Sandbox events told before then, by factories
 * run at load, are counted once it is made.
 */
function serveMetrics(auditDropped: () => number): {
  sandboxEvent(event: SandboxEvent): void;
  made: Promise<ServerMetrics>;
} {
  let metrics: ServerMetrics | undefined;
  const early: SandboxEvent[] = [];
  const made = import('../observe/metrics.js').then(({ ServerMetrics }) => {
    metrics = new ServerMetrics();
    metrics.countAuditDrops(auditDropped);
    for (const event of early) metrics.sandboxEvent(event);
    return metrics;
  });
  // Awaited when the server starts; a failure to load surfaces there.
  made.catch(() => undefined);
  return { sandboxEvent: (event) => (metrics ? metrics.sandboxEvent(event) : void early.push(event)), made };
}

/** The Host names and bearer tokens of `serve --transport http`: flags, the environment, the config (with the tokens of identities). */
function accessGate(flags: ServeFlags, project: ProjectConfig, oauth: boolean): AccessGate {
  const config = project.http;
  const tokens = [flags.authToken, cli().env[AUTH_TOKEN_ENV]].filter(
    (token): token is string => token !== undefined && token !== '',
  );
  const namedTokens = Object.entries(project.identities).flatMap(([identity, entry]) =>
    (entry.tokens ?? []).map((digest) => ({ identity, digest })),
  );
  // A setting that cannot be used stops the start (AccessConfigError, ERR004).
  return AccessGate.create({
    host: flags.host,
    allowedHosts: [...(config.allowedHosts ?? []), ...flags.allowHost],
    tokens,
    tokenDigests: config.authTokens,
    namedTokens,
    oauth,
  });
}

/** The OAuth resource server (src/access/setup.ts), its issuer's metadata read now: a setting that cannot work stops the start. */
async function oauthOf(flags: ServeFlags, project: ProjectConfig): Promise<OAuthPrepared | undefined> {
  // A setting that cannot work stops the start (OAuthSetupError, ERR011).
  return prepareOAuth(project.oauth, { issuer: flags.oauthIssuer, resource: flags.resource }, cli().env);
}

/** The identities of the config, each group they name verified as `serve --group` verifies it. */
function identitiesOf(
  project: ProjectConfig,
  catalog: Catalog,
  groupSource: Parameters<typeof verifyGroup>[1],
  state: SharedState,
): Identities {
  // A setting that cannot work stops the start (IdentityConfigError, ERR012).
  // Each identity's rate bucket sits with the other buckets: in Redis, one bucket over all replicas.
  const groupTools = (group: string) => {
    const verdict = verifyGroup(catalog, groupSource, group);
    return verdict.ok ? verdict.tools : { refused: verdict.errors.map(formatFinding).join('; ') };
  };
  return Identities.create(project.identities, groupTools, (bucket, capacity, refill) =>
    state.take(bucket, capacity, refill),
  );
}

/** Whether `port` can be bound on `host`, tried and let go at once; a usage error when it cannot. Port 0 always can. */
async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((bound, failed) => {
    probe.once('error', failed);
    probe.listen({ host, port, exclusive: true }, () => bound());
  }).catch((error: unknown) => {
    throw listenError(error, host, port);
  });
  await new Promise<void>((closed) => probe.close(() => closed()));
}

/** Why the server cannot listen, as the operator acts on it. */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new UsageError(`port ${port} on ${host} is in use; pick another with --port`);
  if (code === 'EADDRNOTAVAIL' || code === 'EACCES')
    return new UsageError(`cannot listen on ${host}:${port} (${code})`);
  return error;
}
