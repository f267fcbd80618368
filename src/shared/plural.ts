// A count with its noun, as every printed line says one: `0 tools`, `1 tool`, `2 tools`. Here, in the
// bottom room, so that every room that prints a count (the CLI's summaries, the MCP layer's answers,
// discovery's texts, the logs) says it one way.

/** `1 file`, `2 files`; `word` is the singular, made plural with an s (`more key` → `2 more keys`). */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
