// The flags of `flowguard serve` (the command's definition, which the CLI reference page is also
// generated from) and how a numeric one is read; serve.ts runs the command.

import type { Command } from 'commander';
import { DEFAULT_MAX_RESULT_CHARS } from '../mcp/content.js';
import { AUTH_TOKEN_ENV } from '../edge/auth.js';
import { DEFAULT_ALLOWED_ORIGINS, DEFAULT_HOST, DEFAULT_PORT } from '../edge/origins.js';
import { UsageError } from '../errors/flowguard-error.js';
import { catalogOptions, collect, type CatalogFlags } from './shared.js';

export interface ServeFlags extends CatalogFlags {
  transport: string;
  host: string;
  port: string;
  upstream: string[];
  allowOrigin: string[];
  allowHost: string[];
  authToken?: string;
  sessions?: boolean;
  maxResultChars: string;
  group?: string;
  cache: boolean;
  watch?: boolean;
  logLevel?: string;
  logFormat?: string;
  redis?: string;
  tools?: string;
  pageSize?: string;
  oauthIssuer?: string;
  resource?: string;
}

/** The `serve` command with its flags, not yet given its action. */
export function defineServe(program: Command): Command {
  return catalogOptions(
    program
      .command('serve')
      .description('serve every tool of the catalog over MCP (stdio, or Streamable HTTP on 127.0.0.1)')
      .option(
        '--transport <stdio|http>',
        'stdio for a client that starts the server, http for Streamable HTTP',
        'stdio',
      )
      .option('--host <address>', 'http: address to bind', DEFAULT_HOST)
      .option('--port <port>', 'http: port (0 picks a free one)', String(DEFAULT_PORT)),
    { upstream: true },
  )
    .option(
      '--allow-origin <origin>',
      `http: also accept browser requests from this origin, exact or scheme://host:* (repeatable; always allowed: ${DEFAULT_ALLOWED_ORIGINS.join(', ')})`,
      collect,
      [],
    )
    .option(
      '--allow-host <name>',
      'http: also accept requests whose Host header names this host (repeatable; the bound address, and for a loopback bind localhost, always are)',
      collect,
      [],
    )
    .option(
      '--auth-token <token>',
      `http: require this bearer token (prefer ${AUTH_TOKEN_ENV} in the environment: a flag shows in the process list)`,
    )
    .option(
      '--oauth-issuer <url>',
      'http: accept OAuth access tokens issued by this authorization server (found by RFC 8414 or OpenID discovery) for this server (default: oauth.issuer of the config)',
    )
    .option(
      '--resource <url>',
      "http: this server's OAuth resource URL, the audience its tokens must carry (default: oauth.resource of the config, else the URL /mcp is served at)",
    )
    .option(
      '--sessions',
      'http: keep one session per client (Mcp-Session-Id) instead of answering every request on its own',
    )
    .option(
      '--max-result-chars <n>',
      'cut text results longer than this many characters',
      String(DEFAULT_MAX_RESULT_CHARS),
    )
    .option('--group <name>', 'serve only the tools of this group of <project>/.flowmcp/groups.json, once it verifies')
    .option(
      '--no-cache',
      'check every schema file afresh instead of reusing <project>/.flowmcp/cache/ for unchanged ones',
    )
    .option(
      '--watch',
      'reload changed schema and list files while serving; a file with errors keeps its last good version',
    )
    .option(
      '--redis <url>',
      'keep rate limits, upstream pauses and the response cache in Redis (redis://[:password@]host:port[/db]), shared by every replica (default: redis.url of the config, else in this process)',
    )
    .option(
      '--tools <auto|search|all>',
      'what tools/list shows: every tool (all), the discovery meta-tools search_tools, describe_tool, call_tool (search), or search above 100 tools (auto; default: discovery.tools of the config, else auto)',
    )
    .option(
      '--page-size <n>',
      'tools/list answers at most n tools and a nextCursor for the rest (default: discovery.pageSize of the config, else all at once)',
    )
    .option(
      '--log-level <level>',
      'structured logs on stderr: fatal, error, warn, info (one line per call), debug, trace or silent (default: log.level of the config, else info)',
    )
    .option(
      '--log-format <format>',
      'text (the summary for a person, the logs as JSON lines among it) or json (every line on stderr one JSON log entry, for a log shipper) (default: log.format of the config, else text)',
    );
}

export function integerFlag(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not '${text}'`);
  }
  return value;
}
