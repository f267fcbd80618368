// How well a ranking answers a query set: hit@1, hit@5, MRR over the answerable requests, and
// how the "none" answer splits between the requests no tool answers and those some tool does.

export interface Query {
  query: string;
  /** Every served tool that could answer it; empty when none can. */
  tools: string[];
}

export interface Quality {
  answerable: number;
  unanswerable: number;
  hit1: number;
  hit5: number;
  mrr: number;
  /** Share of unanswerable requests answered with no tool. */
  noneRecognised: number;
  /** Share of answerable requests answered with no tool. */
  answerableRefused: number;
  misses: string[];
}

export function measureQuality(queries: readonly Query[], rank: (query: string) => readonly string[]): Quality {
  let hit1 = 0;
  let hit5 = 0;
  let reciprocal = 0;
  let refused = 0;
  let none = 0;
  const misses: string[] = [];
  const answerable = queries.filter((query) => query.tools.length > 0);
  for (const { query, tools } of queries) {
    const ranked = rank(query);
    if (tools.length === 0) {
      if (ranked.length === 0) none += 1;
      else misses.push(`none expected: ${query} → ${ranked.slice(0, 3).join(', ')}`);
      continue;
    }
    if (ranked.length === 0) refused += 1;
    const position = ranked.findIndex((name) => tools.includes(name));
    if (position === 0) hit1 += 1;
    if (position >= 0 && position < 5) hit5 += 1;
    if (position >= 0) reciprocal += 1 / (position + 1);
    if (position !== 0)
      misses.push(
        `${position < 0 ? 'miss' : `#${position + 1}`}: ${query} → ${ranked.slice(0, 3).join(', ') || '(none)'}; wanted ${tools.slice(0, 3).join(', ')}`,
      );
  }
  const unanswerable = queries.length - answerable.length;
  const share = (count: number, of: number) => (of === 0 ? 0 : count / of);
  return {
    answerable: answerable.length,
    unanswerable,
    hit1: share(hit1, answerable.length),
    hit5: share(hit5, answerable.length),
    mrr: share(reciprocal, answerable.length),
    noneRecognised: share(none, unanswerable),
    answerableRefused: share(refused, answerable.length),
    misses,
  };
}
