// A request that holds a place's coordinates ("what's at 48.8584, 2.2945", "nearest hospital to
// 50.94, 6.96") hands them to a tool that takes a latitude and a longitude: a tool that takes
// neither answers it less well, however many of its other words it shares. Read from the request's
// form and the tools' parameter keys alone, so it holds for any catalog.

import type { Tool } from '../catalog/tools.js';
import type { Ranked } from './bm25.js';
import { fold, splitWords } from './words.js';

/** Two decimal numbers side by side, at least one with a fraction: `52.52,13.40`, `38.58, -121.49` (not in a longer list: `5.5, 6.1, 7.2` are values). */
const PAIR =
  /(?<![\d.])(-?\d{1,3}(?:\.\d+)?)\s*[,;/]?\s+(-?\d{1,3}(?:\.\d+)?)(?![\d.])|(?<![\d.])(-?\d{1,3}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)(?![\d.])/g;

const LIST_BEFORE = /\d\s*[,;]\s*$/;
const LIST_AFTER = /^\s*[,;]\s*-?\d/;

const LATITUDE = new Set(['lat', 'latitude']);
const LONGITUDE = new Set(['lon', 'lng', 'long', 'longitude']);
/** A key that takes both at once. */
const BOTH = new Set(['coordinates', 'coords', 'latlng', 'latlon', 'lonlat', 'lnglat']);

/** A tool that takes no coordinates scores this share of its score for a request that holds them. */
const WITHOUT_COORDINATES = 0.5;

/** Whether `query` holds a latitude and a longitude. */
export function holdsCoordinates(query: string): boolean {
  for (const match of query.matchAll(PAIR)) {
    const latitude = match[1] ?? match[3];
    const longitude = match[2] ?? match[4];
    if (latitude === undefined || longitude === undefined) continue;
    if (!latitude.includes('.') && !longitude.includes('.')) continue;
    const before = query.slice(0, match.index);
    const after = query.slice(match.index + match[0].length);
    if (LIST_BEFORE.test(before) || LIST_AFTER.test(after)) continue;
    if (Math.abs(Number(latitude)) <= 90 && Math.abs(Number(longitude)) <= 180) return true;
  }
  return false;
}

const takes = new WeakMap<Tool, boolean>();

/** Whether a tool takes a latitude and a longitude from its caller. */
export function takesCoordinates(tool: Tool): boolean {
  let found = takes.get(tool);
  if (found === undefined) {
    const words = tool.route.parameters
      .filter((param) => param.source.kind === 'user')
      .map((param) => splitWords(param.key).map(fold));
    const has = (names: ReadonlySet<string>) => words.some((key) => key.some((word) => names.has(word)));
    found = (has(LATITUDE) && has(LONGITUDE)) || words.some((key) => BOTH.has(key.join('')));
    takes.set(tool, found);
  }
  return found;
}

/** `results` (best first) with each tool that takes no coordinates scored WITHOUT_COORDINATES of its score, when the request holds some. */
export function preferCoordinateTools(query: string, results: Ranked[], toolAt: (document: number) => Tool): Ranked[] {
  if (!holdsCoordinates(query)) return results;
  const rescored = results.map((result) =>
    takesCoordinates(toolAt(result.document)) ? result : { ...result, score: result.score * WITHOUT_COORDINATES },
  );
  // Stable: equal scores keep their order.
  return rescored.sort((a, b) => b.score - a.score);
}
