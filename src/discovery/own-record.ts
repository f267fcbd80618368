// A request about the requester's own past doings (`how many steps did I walk today`, `how much
// did I spend on groceries`) asks for a record only a service that knows the requester keeps: a
// tool answers it only if it says what was done (walk, spend). Without an address or another
// identifier in the request, a tool that shares another word of it (steps, groceries) answers
// something else. Read from the request's words, so it holds for any catalog.

import { fold, requestSplit, term } from './words.js';

/** Words that, after `did`, make the requester the one who did it. */
const REQUESTER = new Set(['i', 'we']);

/**
 * The terms of what the requester did (the word after `did I` or `did we`, and a particle-free
 * verb only), or an empty list when the request is not about that or holds a value with a digit
 * (an address, a hash: `did I pay gas on 0x...` names whose record it is).
 */
export function requesterDoing(text: string): string[] {
  // Most requests say no `did`: not split again for them.
  if (!/\bdid\b/i.test(text)) return [];
  const words = requestSplit(text).map(fold);
  if (words.some((word) => /\d/.test(word))) return [];
  for (let at = 0; at + 2 < words.length; at += 1)
    if (words[at] === 'did' && REQUESTER.has(words[at + 1] as string)) return term(words[at + 2] as string);
  return [];
}
