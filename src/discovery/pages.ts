// tools/list in pages (MCP pagination): at most `pageSize` tools per answer and a `nextCursor`
// while more follow. The cursor is opaque to the client; here it is the offset of the next page,
// so a cursor from a listing that has since changed (a reload tells the client with
// list_changed) still lands on a page, and a forged one is refused, not trusted.

import { FlowguardError } from '../errors/flowguard-error.js';
import { plural } from '../shared/plural.js';

export interface ToolPage<T> {
  tools: T[];
  nextCursor?: string;
}

/** A cursor that is not one this server gave. */
export class CursorError extends FlowguardError {
  constructor(message: string) {
    super('ERR009', message);
  }
}

export function pageOf<T>(
  listing: readonly T[],
  cursor: string | undefined,
  pageSize: number | undefined,
): ToolPage<T> {
  if (pageSize === undefined && cursor === undefined) return { tools: [...listing] };
  const start = cursor === undefined ? 0 : offsetOf(cursor);
  if (start > listing.length)
    throw new CursorError(
      `invalid cursor: past the end of the ${plural(listing.length, 'tool')}; list again without a cursor`,
    );
  const end = pageSize === undefined ? listing.length : start + pageSize;
  const page: ToolPage<T> = { tools: listing.slice(start, end) };
  if (end < listing.length) page.nextCursor = cursorOf(end);
  return page;
}

function cursorOf(offset: number): string {
  return Buffer.from(`tools:${offset}`).toString('base64url');
}

function offsetOf(cursor: string): number {
  const match = /^tools:(\d{1,9})$/.exec(Buffer.from(cursor.slice(0, 64), 'base64url').toString('utf8'));
  if (!match) throw new CursorError('invalid cursor: not one this server gave; list again without a cursor');
  return Number(match[1]);
}
