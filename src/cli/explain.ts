// `flowguard explain <code...>`: why a finding's rule exists and how to fix what it reports, where
// the code was printed. The text is the code table's (CODES, CODE_SECTIONS), the one the page
// docs/reference/findings.md is generated from, so the terminal and the page never disagree; a
// link of that text names the page's file in this installation (docs/ ships in the package).

import { isAbsolute } from 'node:path';
import type { Command } from 'commander';
import { CODE_SECTIONS, type CodeDoc } from '../report/code-docs.js';
import { CODES, type Code } from '../report/codes.js';
import { withSuggestion } from '../report/did-you-mean.js';
import { installedFile } from '../shared/version.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

export function registerExplain(program: Command): void {
  program
    .command('explain')
    .description('say why a finding code exists and how to fix what it reports (e.g. flowguard explain VAL032)')
    .argument('<codes...>', 'finding or error codes, as printed (SEC006, VAL032, CFG002, ERR001, ...)')
    .action((codes: string[]) => runExplain(codes));
}

function runExplain(codes: string[]): void {
  const known = Object.keys(CODES);
  const entries = codes.map((text) => {
    const code = text.trim().toUpperCase();
    if (!Object.hasOwn(CODES, code))
      throw new UsageError(
        `no finding code ${JSON.stringify(text.slice(0, 40))}; ${withSuggestion(code, known, `every code: ${findingsPage()}`)}`,
      );
    return explanation(code as Code);
  });
  cli().stdout.write(`${entries.join('\n\n')}\n`);
}

function explanation(code: Code): string {
  const { severity, meaning } = CODES[code];
  const doc = docOf(code);
  return [
    `${code} (${severity}): ${plain(meaning)}`,
    ...(doc ? [`  why: ${plain(doc.why)}`, `  fix: ${plain(doc.fix)}`] : []),
    `  more: ${findingsPage()}`,
  ].join('\n');
}

function docOf(code: Code): CodeDoc | undefined {
  for (const section of CODE_SECTIONS) {
    const doc = section.codes[code];
    if (doc) return doc;
  }
  return undefined;
}

/** The findings page in this installation. */
function findingsPage(): string {
  return installedFile('docs', 'reference', 'findings.md');
}

/**
 * The table's text is Markdown written for docs/reference/findings.md: a link becomes its words
 * and the file it names in this installation (relative links are relative to that page), or its
 * address.
 */
function plain(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, words: string, target: string) => {
    if (/^[a-z]+:/i.test(target) || isAbsolute(target)) return `${words}: ${target}`;
    const [path = '', anchor] = target.split('#');
    const file = path === '' ? findingsPage() : installedFile('docs', 'reference', path);
    return `${words}: ${file}${anchor ? `#${anchor}` : ''}`;
  });
}
