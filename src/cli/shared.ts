// What the commands share: the project and catalog flags with their defaults, opening the
// catalog those flags name, the checks of the folders they name, and how paths and tables are
// printed. Each command adds its own flags and output around these.

import { relative } from 'node:path';
import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { Catalog } from '../runtime/catalog.js';
import { type CatalogOptions } from '../runtime/catalog-options.js';
import { Upstreams } from '../http/upstreams.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

/** `--project` and `--lists`: every command that reads a project. */
export interface ProjectFlags {
  project: string;
  /** Only set when given: the default folder may be missing, a given one may not. */
  lists?: string;
}

/** The flags of the commands that load a catalog. */
export interface CatalogFlags extends ProjectFlags {
  schemas: string;
  /** `--upstream ORIGIN=BASEURL`, for the commands that send requests (`call`, `serve`). */
  upstream?: string[];
}

/** Adds `--lists` and `--project`. */
export function projectOptions(command: Command): Command {
  return command
    .option('--lists <dir>', 'shared-list folder (default: <project>/shared-lists)')
    .option('--project <dir>', 'project folder holding .flowmcp/ and .env', '.');
}

/** Adds `--schemas`, `--lists` and `--project`, and with `upstream` the repeatable `--upstream`. */
export function catalogOptions(command: Command, { upstream = false } = {}): Command {
  projectOptions(command.option('--schemas <dir>', 'schema folder', DEFAULT_SCHEMAS));
  if (upstream)
    command.option(
      '--upstream <origin=baseurl>',
      'send requests for ORIGIN (or *) to BASEURL instead (repeatable)',
      collect,
      [],
    );
  return command;
}

/** A repeatable option's values, in the order given. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * The catalog the flags name. A schema path or lists folder that was named but does not exist
 * is a usage error (`schemasNoun` says what the schema path is called in that message).
 */
export async function openCatalog(
  flags: CatalogFlags,
  extra: Partial<CatalogOptions> = {},
  schemasNoun = 'schema file or folder',
): Promise<Catalog> {
  if (!exists(flags.schemas))
    throw missingSchemas(`no such ${schemasNoun}: ${flags.schemas}`, flags.schemas, '`--schemas <dir>`');
  requireListsFolder(flags);
  const upstreams = flags.upstream ? Upstreams.parseFlags(flags.upstream) : undefined;
  // Every command holds keys to the key lock and records the keys it sees first (`keys accept` only judges).
  return Catalog.load({
    schemas: flags.schemas,
    lists: flags.lists,
    project: flags.project,
    upstreams,
    keyLock: 'record',
    env: cli().env,
    ...extra,
  });
}

/** The schema folder a command reads unless told otherwise. */
export const DEFAULT_SCHEMAS = 'schemas';

/**
 * A missing schema path. Where it is the default folder, the command most likely ran outside a
 * project (a newcomer's first `flowguard serve`): the error says the three ways on. `nameIt` is
 * how this command is given another path.
 */
export function missingSchemas(message: string, path: string, nameIt: string): UsageError {
  if (path !== DEFAULT_SCHEMAS) return new UsageError(message);
  return new UsageError(
    `${message} (in ${cli().cwd}); run flowguard in a project folder (one holding ${DEFAULT_SCHEMAS}/), name one with ${nameIt}, or write a first schema here with \`flowguard init\``,
  );
}

/** A `--lists` folder that was given must exist; the default one may be missing (no lists). */
export function requireListsFolder(flags: ProjectFlags): void {
  if (flags.lists !== undefined && !isFolder(flags.lists)) throw new UsageError(`no such lists folder: ${flags.lists}`);
}

/** A path as the user would type it: relative to the working directory when it lies below it. */
export function displayPath(file: string): string {
  const shown = relative(cli().cwd, file);
  return shown === '' || shown.startsWith('..') ? file : shown;
}

/** Rows padded into columns; the last column is not padded. */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) =>
    row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join('  '),
  );
}

export function exists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false }) !== undefined;
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
