// Formatters are kept apart from the checks (the ESLint split): the checks produce findings,
// these turn them into text for people or JSON for programs.

import { terminalJson, terminalText } from '../shared/terminal-text.js';
import { countBySeverity, hasErrors, type Finding, type Severity } from './findings.js';
import { fileVerdict, isAuthoringError } from './scope.js';
import { plural } from '../shared/plural.js';

// The commands print through these; the escaping itself is one table for every printer.
export { actsOnTerminal, logLine, terminalJson, terminalText } from '../shared/terminal-text.js';

export interface FileReport {
  file: string;
  findings: Finding[];
  /** Schema files: every route (tool) the file declares, so a summary can say which of them load. */
  routes?: readonly string[];
  /** A skill, prompt or agent file beside the schemas: recognised and skipped. */
  skipped?: string;
}

export interface Summary extends Record<Severity, number> {
  files: number;
  filesWithErrors: number;
  /** Files of which nothing loads: an error concerns the whole file. */
  filesRejected: number;
  /** Routes left out by an error of their own, in files that load otherwise. */
  routesDropped: number;
  /** Errors that fail `validate` but leave everything in service (tests, outputs, descriptions). */
  authoringErrors: number;
}

function summarize(reports: readonly FileReport[]): Summary {
  const all = reports.flatMap((report) => report.findings);
  const filesWithErrors = reports.filter((report) => hasErrors(report.findings)).length;
  const verdicts = reports.map(fileVerdict);
  return {
    files: reports.length,
    filesWithErrors,
    filesRejected: verdicts.filter((verdict) => verdict.status === 'rejected').length,
    routesDropped: verdicts.reduce(
      (sum, verdict) => sum + (verdict.status === 'loads' ? verdict.dropped.length : 0),
      0,
    ),
    authoringErrors: all.filter(isAuthoringError).length,
    ...countBySeverity(all),
  };
}

/** `CODE severity file:line:col path: message`, a hint line where there is one, then a summary. */
export function formatHuman(reports: readonly FileReport[], minSeverity: Severity = 'info'): string {
  const shown = new Set<Severity>(
    minSeverity === 'error'
      ? ['error']
      : minSeverity === 'warning'
        ? ['error', 'warning']
        : ['error', 'warning', 'info'],
  );
  const lines: string[] = [];
  for (const { findings } of reports) {
    for (const finding of findings) {
      if (!shown.has(finding.severity)) continue;
      lines.push(formatFinding(finding));
      if (finding.hint) lines.push(terminalText(`    hint: ${finding.hint}`));
    }
  }
  const s = summarize(reports);
  lines.push(
    `${plural(s.files, 'file')} checked: ${plural(s.error, 'error')}, ${plural(s.warning, 'warning')}, ${s.info} info (${consequences(s)})`,
  );
  return lines.join('\n');
}

/** What the errors mean for serving: files that cannot be loaded, routes that cannot be served, errors that only fail `validate`. */
function consequences(s: Summary): string {
  const parts: string[] = [];
  if (s.filesRejected > 0) parts.push(`${plural(s.filesRejected, 'file')} cannot be loaded`);
  if (s.routesDropped > 0) parts.push(`${plural(s.routesDropped, 'route')} cannot be served`);
  if (s.authoringErrors > 0) parts.push(`${plural(s.authoringErrors, 'authoring error')} to fix, served anyway`);
  return parts.length > 0 ? parts.join('; ') : 'all files can be loaded';
}

export function formatFinding(finding: Finding): string {
  const position = finding.line === undefined ? '' : `:${finding.line}:${finding.column ?? 1}`;
  const path = finding.path ? ` ${finding.path}` : '';
  // Messages quote schema and list text, which is untrusted: printed, it cannot act on a terminal.
  return terminalText(`${finding.code} ${finding.severity} ${finding.file}${position}${path}: ${finding.message}`);
}

export function formatJson(reports: readonly FileReport[]): string {
  return terminalJson(
    JSON.stringify(
      { summary: summarize(reports), files: reports.map(({ file, findings }) => ({ file, findings })) },
      null,
      2,
    ),
  );
}
