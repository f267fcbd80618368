// Formatters are kept apart from the checks (the ESLint split): the checks produce findings,
// these turn them into text for people or JSON for programs.

import { countBySeverity, type Finding, type Severity } from '../findings.js';

export interface FileReport {
  file: string;
  findings: Finding[];
}

export function summarize(reports: readonly FileReport[]): Record<Severity, number> & { files: number; filesWithErrors: number } {
  const all = reports.flatMap((report) => report.findings);
  const filesWithErrors = reports.filter((report) => report.findings.some((f) => f.severity === 'error')).length;
  return { files: reports.length, filesWithErrors, ...countBySeverity(all) };
}

/** `CODE severity file:line:col path: message`, a hint line where there is one, then a summary. */
export function formatHuman(reports: readonly FileReport[], minSeverity: Severity = 'info'): string {
  const shown = new Set<Severity>(minSeverity === 'error' ? ['error'] : minSeverity === 'warning' ? ['error', 'warning'] : ['error', 'warning', 'info']);
  const lines: string[] = [];
  for (const { findings } of reports) {
    for (const finding of findings) {
      if (!shown.has(finding.severity)) continue;
      lines.push(formatFinding(finding));
      if (finding.hint) lines.push(`    hint: ${finding.hint}`);
    }
  }
  const s = summarize(reports);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  lines.push(
    `${plural(s.files, 'file')} checked: ${plural(s.error, 'error')}, ${plural(s.warning, 'warning')}, ${s.info} info` +
      (s.filesWithErrors > 0 ? ` (${plural(s.filesWithErrors, 'file')} cannot be loaded)` : ' (all files can be loaded)'),
  );
  return lines.join('\n');
}

export function formatFinding(finding: Finding): string {
  const position = finding.line === undefined ? '' : `:${finding.line}:${finding.column ?? 1}`;
  const path = finding.path ? ` ${finding.path}` : '';
  return `${finding.code} ${finding.severity} ${finding.file}${position}${path}: ${finding.message}`;
}

export function formatJson(reports: readonly FileReport[]): string {
  return JSON.stringify({ summary: summarize(reports), files: reports.map(({ file, findings }) => ({ file, findings })) }, null, 2);
}
