// `flowguard keys accept [KEY ...]`: the operator's word to the key lock (src/keylock/). Every
// catalog load holds back a key from a schema file, namespace or origin the lock does not record
// for it (SEC300); once the operator has reviewed that, this records the named keys (or every
// key) as they are held now, and prints what changed in `.flowmcp/keys.lock.json`.

import type { Command } from 'commander';
import { acceptedLock } from '../keylock/accept.js';
import { writeKeyLock } from '../keylock/lock-file.js';
import { plural } from '../shared/plural.js';
import { catalogOptions, displayPath, openCatalog, type CatalogFlags } from './shared.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

export function registerKeys(program: Command): void {
  const keys = program
    .command('keys')
    .description('the key lock (.flowmcp/keys.lock.json): which schema files, namespaces and origins receive each key');
  catalogOptions(
    keys
      .command('accept')
      .description(
        'after review, record the named keys (default: every key) as the schema files hold them now, and print what changed',
      )
      .argument('[keys...]', 'key names; default every key'),
  ).action((names: string[], flags: CatalogFlags) => runAccept(names, flags));
}

async function runAccept(names: string[], flags: CatalogFlags): Promise<void> {
  // Judged only: the lock is written once, here, with what the operator accepts.
  const catalog = await openCatalog(flags, { keyLock: 'check' });
  try {
    const report = catalog.keyLock;
    if (!report) throw new Error('the key lock is on for every command');
    const accepted = acceptedLock(report, names);
    if (typeof accepted === 'string') throw new UsageError(accepted);
    const file = displayPath(report.file);
    if (accepted.changes.length === 0) {
      cli().stdout.write(
        `flowguard: ${file} already records ${names.length > 0 ? names.join(', ') : 'every key'} as held now; nothing changed\n`,
      );
      return;
    }
    writeKeyLock(report.file, accepted.keys);
    const added = accepted.changes.filter((line) => line.includes('  + ')).length;
    const lines = [
      `flowguard: ${file} updated:`,
      ...accepted.changes.map((line) => `  ${line}`),
      `${plural(added, 'holder')} added, ${accepted.changes.length - added} removed; review and commit the file`,
    ];
    cli().stdout.write(`${lines.join('\n')}\n`);
    cli().exitCode = 0;
  } finally {
    await catalog.close();
  }
}
