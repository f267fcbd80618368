// Reading Markdown as GitHub renders it, for the docs tests: the anchors its headings get and the
// links it holds, code (fenced blocks and inline spans) left out.

/** GitHub's anchor of a heading: lowercased, punctuation but `-` and `_` dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
}

/** The lines outside fenced code blocks, with their line numbers. */
function proseLines(text: string): Array<{ line: number; text: string }> {
  let fenced = false;
  return text.split('\n').flatMap((line, index) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line: index + 1, text: line }];
  });
}

/** Every anchor the page's headings make; a repeated heading gets `-1`, `-2`, ... */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^#{1,6} (.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The targets of the page's inline links `[text](target)`, outside code. */
export function markdownLinks(text: string): Array<{ target: string; line: number }> {
  return proseLines(text).flatMap(({ line, text: prose }) =>
    [...prose.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => ({ target: match[1] as string, line })),
  );
}
