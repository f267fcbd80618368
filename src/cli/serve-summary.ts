// The one start-up summary of `flowguard serve`, for stderr: what was loaded, which tools are
// served, which are hidden for want of a key (grouped by the keys they lack), every file that
// was rejected and every route that was dropped (decision R1) with its first error. The full
// findings are `flowguard validate`'s job. Then, for `serve --transport http`, how to connect.

import { resolve } from 'node:path';
import type { Catalog } from '../runtime/catalog.js';
import type { Finding } from '../report/findings.js';
import { refusalText } from '../http/secrets.js';
import { formatFinding, type FileReport } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { fileVerdict } from '../report/scope.js';
import { describeHolder } from '../keylock/judge.js';
import { flowguardBin } from '../shared/version.js';
import { AUTH_TOKEN_ENV } from '../edge/auth.js';

/** Rejected files and hidden tools named one per line, at most this many of each. */
const MAX_LINES = 20;

/** What a load found, for the summary's lines and for its log entry. */
function loadFacts(catalog: Catalog) {
  const { schemaReports, listReports } = catalog;
  const rejectedError = (report: FileReport): Finding[] => {
    const verdict = fileVerdict(report);
    return verdict.status === 'rejected' ? [verdict.error] : [];
  };
  return {
    schemaReports,
    listReports,
    rejected: [...schemaReports, ...listReports].flatMap(rejectedError),
    dropped: schemaReports.flatMap((report) => {
      const verdict = fileVerdict(report);
      return verdict.status === 'loads' ? verdict.dropped.map(({ error }) => error) : [];
    }),
    rejectedSchemas: schemaReports.filter((report) => rejectedError(report).length > 0).length,
    rejectedLists: listReports.filter((report) => rejectedError(report).length > 0).length,
    visible: catalog.visibleTools().length,
    hidden: catalog.tools.filter((tool) => tool.missingKeys.length > 0),
  };
}

/** The summary's first line as the fields of a log entry (`serve --log-format json`). */
export function loadCounts(catalog: Catalog): Record<string, number> {
  const facts = loadFacts(catalog);
  return {
    schemaFiles: facts.schemaReports.length,
    loaded: catalog.schemas.length,
    rejected: facts.rejectedSchemas,
    served: facts.visible,
    hidden: facts.hidden.length,
    dropped: facts.dropped.length,
    listFiles: facts.listReports.length,
    listsRejected: facts.rejectedLists,
  };
}

export function loadSummary(catalog: Catalog): string {
  const { schemaReports, listReports, rejected, dropped, rejectedSchemas, rejectedLists, visible, hidden } =
    loadFacts(catalog);
  const lines = [
    `flowguard: ${plural(schemaReports.length, 'schema file')}: ${catalog.schemas.length} loaded, ${rejectedSchemas} rejected; ` +
      `${plural(visible, 'tool')} served, ${hidden.length} hidden` +
      (dropped.length > 0 ? `, ${plural(dropped.length, 'route')} dropped` : '') +
      (listReports.length > 0 ? `; ${plural(listReports.length, 'list file')}, ${rejectedLists} rejected` : ''),
  ];
  if (hidden.length > 0) {
    lines.push(
      '  hidden until the operator grants their keys (the project .env, or security.keys in .flowmcp/config.json):',
    );
    // One line per key and namespace: what is wrong, the line that would fix it, the tools it hides.
    const byGrant = new Map<string, string[]>();
    for (const tool of hidden) {
      for (const key of tool.missingKeys) {
        const access = catalog.keyAccess(key, tool.namespace, tool.schema.file);
        const line = access.granted
          ? key
          : `${key} (${tool.namespace}): ${refusalText(access)}; ${access.reason === 'held' ? 'accept with' : 'grant with'} ${access.fix}`;
        byGrant.set(line, [...(byGrant.get(line) ?? []), tool.name]);
      }
    }
    for (const [line, names] of [...byGrant].slice(0, MAX_LINES)) {
      const shown = names.slice(0, 8).join(', ');
      lines.push(`    ${line}: hides ${shown}${names.length > 8 ? ` and ${names.length - 8} more` : ''}`);
    }
    if (byGrant.size > MAX_LINES) lines.push(`    and ${plural(byGrant.size - MAX_LINES, 'more key')}`);
  }
  lines.push(...keyLockLines(catalog));
  if (rejected.length > 0) {
    lines.push('  rejected (first error of each file; `flowguard validate` shows every finding):');
    for (const finding of rejected.slice(0, MAX_LINES)) lines.push(`    ${formatFinding(finding)}`);
    if (rejected.length > MAX_LINES) lines.push(`    and ${plural(rejected.length - MAX_LINES, 'more file')}`);
  }
  if (dropped.length > 0) {
    lines.push('  routes dropped, their files served (first error of each route):');
    for (const finding of dropped.slice(0, MAX_LINES)) lines.push(`    ${formatFinding(finding)}`);
    if (dropped.length > MAX_LINES) lines.push(`    and ${plural(dropped.length - MAX_LINES, 'more route')}`);
  }
  return lines.join('\n');
}

/**
 * What the key lock did at this load: keys it recorded (or could not record) as first seen, a
 * lock it cannot use, and each key it holds back from a file, with the command that accepts it.
 */
export function keyLockLines(catalog: Catalog): string[] {
  const report = catalog.keyLock;
  if (!report) return [];
  const lines: string[] = [];
  const firstSeen = [...report.firstSeen].filter(([, holders]) => holders.length > 0);
  if (firstSeen.length > 0) {
    const state = report.recorded
      ? 'recorded'
      : report.writeError
        ? `NOT recorded (${report.writeError})`
        : 'not recorded (judged only)';
    lines.push(`  key lock ${report.file}: first seen, ${state}:`);
    for (const [key, holders] of firstSeen.slice(0, MAX_LINES))
      lines.push(`    ${key} -> ${holders.map(describeHolder).join('; ')}`);
    if (firstSeen.length > MAX_LINES) lines.push(`    and ${plural(firstSeen.length - MAX_LINES, 'more key')}`);
  }
  const problem = report.problem;
  if (problem) lines.push(`  key lock: ${formatFinding(problem)}`);
  if (report.held.length > 0) {
    lines.push(
      `  held back by the key lock ${report.file} (review, then \`${report.acceptCommand()}\` or name the keys):`,
    );
    for (const finding of report.findings().slice(0, MAX_LINES)) lines.push(`    ${formatFinding(finding)}`);
    if (report.held.length > MAX_LINES) lines.push(`    and ${report.held.length - MAX_LINES} more`);
  }
  return lines;
}

/** What the connect instructions of `serve --transport http` repeat of its flags. */
export interface ConnectFlags {
  schemas: string;
  project: string;
  lists?: string;
  group?: string;
  tools?: string;
  pageSize?: string;
  upstream?: readonly string[];
  sessions?: boolean;
}

/**
 * A client's header for a server that requires a token, with the token left to the shell: the
 * printed lines name the variable, never the token (stderr goes to logs and terminals' scrollback).
 */
const AUTH_HEADER_LINE = `Authorization: Bearer $${AUTH_TOKEN_ENV}`;
/** In JSON configuration nothing expands a variable: the reader replaces this. */
const TOKEN_PLACEHOLDER = '<token>';

/**
 * How to connect to `serve --transport http` at `url`. With a token required, every line that
 * reaches the URL carries the Authorization header: an Inspector recent enough to send headers
 * (the CLI's --header), and mcp-remote, which bridges a stdio-only client (Claude Desktop) to the
 * URL (without the header it tries OAuth registration, which flowguard has not). The Claude
 * Desktop entry that starts its own server over stdio needs no token.
 */
export function connectHelp(
  url: string,
  served: number,
  flags: ConnectFlags,
  requiresToken: boolean,
  groups: readonly { name: string; kind?: string }[] = [],
): string {
  // The installed launcher by absolute path, run by this Node: the entry works from any folder
  // and needs nothing on PATH (flowguard is not a package name on the npm registry).
  const args = [
    flowguardBin(),
    'serve',
    '--transport',
    'stdio',
    '--schemas',
    resolve(flags.schemas),
    '--project',
    resolve(flags.project),
  ];
  if (flags.lists !== undefined) args.push('--lists', resolve(flags.lists));
  if (flags.group !== undefined) args.push('--group', flags.group);
  if (flags.tools !== undefined) args.push('--tools', flags.tools);
  if (flags.pageSize !== undefined) args.push('--page-size', flags.pageSize);
  for (const upstream of flags.upstream ?? []) args.push('--upstream', upstream);
  const desktop = JSON.stringify({ mcpServers: { flowguard: { command: process.execPath, args } } });
  const mode = `Streamable HTTP, ${flags.sessions ? 'sessions' : 'stateless'}`;
  const focused =
    groups.length === 0
      ? []
      : [
          '  focused endpoints (the same token, Host and Origin rules):',
          ...groups.map(({ name, kind = 'group' }) => `    ${url}/${name}  (${kind} ${name}: only its tools)`),
        ];
  if (!requiresToken) {
    return [
      `flowguard: serving ${plural(served, 'tool')} at ${url} (${mode}); Ctrl+C stops`,
      ...focused,
      '  inspect:',
      `    npx @modelcontextprotocol/inspector --cli ${url} --transport http --method tools/list`,
      `    npx @modelcontextprotocol/inspector   (in the page: transport Streamable HTTP, URL ${url}, Connect)`,
      '  Claude Desktop (claude_desktop_config.json; it starts its own server over stdio):',
      `    ${desktop}`,
    ].join('\n');
  }
  // mcp-remote's form for Claude Desktop: the header's value in env, as a space inside an argument is mangled on some systems.
  const remote = JSON.stringify({
    mcpServers: {
      flowguard: {
        command: 'npx',
        args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${AUTH_HEADER}'],
        env: { AUTH_HEADER: `Bearer ${TOKEN_PLACEHOLDER}` },
      },
    },
  });
  return [
    `flowguard: serving ${plural(served, 'tool')} at ${url} (${mode}); every request needs the header Authorization: Bearer and a token (${AUTH_TOKEN_ENV} below); Ctrl+C stops`,
    ...focused,
    '  inspect (an Inspector recent enough to send headers; the one Node 20 gets cannot: use mcp-remote below):',
    `    npx @modelcontextprotocol/inspector --cli ${url} --transport http --method tools/list --header "${AUTH_HEADER_LINE}"`,
    '  a client that speaks only stdio, through mcp-remote:',
    `    npx -y mcp-remote ${url} --header "${AUTH_HEADER_LINE}"`,
    `  Claude Desktop connecting to this server (claude_desktop_config.json; replace ${TOKEN_PLACEHOLDER} with the token):`,
    `    ${remote}`,
    '  Claude Desktop starting its own server over stdio instead (no token):',
    `    ${desktop}`,
  ].join('\n');
}

/** The callback port mcp-remote is told to use, so that the redirect URI an operator registers stays the same. */
const MCP_REMOTE_CALLBACK_PORT = 3334;

/**
 * How to connect to a server protected by OAuth (src/access/): each client discovers the
 * authorization server from the server's Protected Resource Metadata and gets a token for the
 * resource itself. An issuer without dynamic client registration needs the client id the
 * operator registered there, given to each client as shown.
 */
export function oauthConnectHelp(
  url: string,
  served: number,
  flags: ConnectFlags,
  oauth: { issuer: string; resource: string },
  groups: readonly { name: string; kind?: string }[] = [],
): string {
  const mode = `Streamable HTTP, ${flags.sessions ? 'sessions' : 'stateless'}`;
  const redirect = `http://localhost:${MCP_REMOTE_CALLBACK_PORT}/oauth/callback`;
  const remoteArgs = [
    '-y',
    'mcp-remote',
    url,
    String(MCP_REMOTE_CALLBACK_PORT),
    '--static-oauth-client-info',
    '{"client_id":"<client id>"}',
  ];
  const desktop = JSON.stringify({ mcpServers: { flowguard: { command: 'npx', args: remoteArgs } } });
  return [
    `flowguard: serving ${plural(served, 'tool')} at ${url} (${mode}); every request needs an OAuth access token from ${oauth.issuer} for the resource ${oauth.resource}; Ctrl+C stops`,
    ...(groups.length === 0
      ? []
      : [
          '  focused endpoints (the same tokens):',
          ...groups.map(({ name, kind = 'group' }) => `    ${url}/${name}  (${kind} ${name}: only its tools)`),
        ]),
    `  clients find the authorization server at ${new URL(url).origin}/.well-known/oauth-protected-resource${new URL(url).pathname}`,
    '  MCP Inspector (in the page: transport Streamable HTTP, this URL, Open Auth Settings, Quick OAuth Flow; a client id if the issuer registers none):',
    `    npx @modelcontextprotocol/inspector`,
    `  mcp-remote, for a client that speaks only stdio (register the redirect URI ${redirect} with the issuer; leave out --static-oauth-client-info where it registers clients itself):`,
    `    npx ${remoteArgs.map((arg) => (arg.startsWith('{') ? `'${arg}'` : arg)).join(' ')}`,
    '  Claude Desktop: Settings, Connectors, Add custom connector, this URL (its OAuth client id under Advanced settings); or in claude_desktop_config.json through mcp-remote:',
    `    ${desktop}`,
    '  the TypeScript SDK (a service with a client of its own at the issuer):',
    `    new StreamableHTTPClientTransport(new URL('${url}'), { authProvider: new ClientCredentialsProvider({ clientId, clientSecret }) })`,
  ].join('\n');
}
