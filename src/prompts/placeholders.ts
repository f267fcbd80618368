// The two placeholders of skill and prompt content (SPEC-NOTES-v3-v4 §4): `{{input:x}}`, filled
// with the argument `x`, and `{{tool:namespace/name}}`, replaced by the tool's name as the client
// sees it. Everything else in the text, other double-brace words included, stays as written.

/** `{{input:name}}` or `{{tool:reference}}`; spaces inside the braces are tolerated. */
const PLACEHOLDER = /\{\{\s*(input|tool)\s*:\s*([^{}\s]+)\s*\}\}/g;

export interface Placeholder {
  kind: 'input' | 'tool';
  /** The input's name, or the tool reference as written. */
  value: string;
}

/** Every placeholder of `text`, in order. */
export function placeholdersIn(text: string): Placeholder[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => ({
    kind: match[1] as Placeholder['kind'],
    value: match[2] as string,
  }));
}

/** `text` with each placeholder replaced by what `fill` returns for it. */
export function fillPlaceholders(text: string, fill: (placeholder: Placeholder) => string): string {
  return text.replace(PLACEHOLDER, (_match, kind: Placeholder['kind'], value: string) => fill({ kind, value }));
}

/**
 * A tool reference split into namespace and route: `ns/name`, the 3.x/4.x id `ns/tool/name`, or
 * flowguard's full reference `ns/file.mjs::name` (whose file narrows the match). Null when the
 * text is none of these.
 */
export function parseToolReference(reference: string): { namespace: string; route: string; file?: string } | null {
  const full = /^([^/\s]+)\/([^/\s]+\.mjs)::(\S+)$/.exec(reference);
  if (full) return { namespace: full[1] as string, file: full[2] as string, route: full[3] as string };
  const parts = reference.split('/');
  if (parts.length === 2 && parts.every(Boolean)) return { namespace: parts[0] as string, route: parts[1] as string };
  if (parts.length === 3 && parts[1] === 'tool' && parts[0] && parts[2])
    return { namespace: parts[0], route: parts[2] };
  return null;
}
