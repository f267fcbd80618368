// The search index's storage and ranking (postings.ts, bm25.ts) and its cache on disk
// (postings-file.ts, index-cache.ts): exact, prefix and one-typo matches; a stored index read back
// equal; a cut or foreign file refused; the cache used when the documents are the same, missed
// when one word changed, rebuilt over a broken file, and harmless where it cannot be written.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { findTerm, rank, type QueryTerm } from '../../src/discovery/bm25.js';
import { cachedPostings, searchCacheDir, textKey } from '../../src/discovery/index-cache.js';
import { decodePostings, encodePostings } from '../../src/discovery/postings-file.js';
import { PostingsBuilder, type Postings } from '../../src/discovery/postings.js';
import { TermCounter } from '../../src/discovery/term-counter.js';
import { ToolIndex } from '../../src/discovery/tool-index.js';
import { splitWords, term } from '../../src/discovery/words.js';
import { tempProject } from '../support/project.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery', 'schemas');
const SETTINGS = { fieldBoost: [2, 1], prefixWeight: 0.5, typoWeight: 0.4, relatedWeight: 0.3 };

// Two fields (a name, a description) per document.
const DOCUMENTS: string[][][] = [
  [['getGasPrice'], ['The gas price on a chain, in gwei']],
  [['getBlockNumber'], ['The latest block of the chain']],
  [['getWeatherWarnings'], ['Severe weather warnings for a district']],
  [['getTokenHolders'], ['Holders of a token, largest first']],
];

/** A builder with `documents` counted into it, as ToolIndex counts a file whose terms are not cached. */
function counted(documents: readonly (readonly (readonly string[])[])[]): PostingsBuilder {
  const builder = new PostingsBuilder((documents[0] ?? []).length);
  const counter = new TermCounter(builder, splitWords, term);
  for (const fields of documents) counter.add(fields);
  return builder;
}

function build(documents: readonly (readonly string[])[][] = DOCUMENTS): Postings {
  return counted(documents).build();
}

const query = (word: string, loose = false): QueryTerm => ({ term: word, boost: 1, prefix: loose, typo: loose });
const ranked = (postings: Postings, ...terms: QueryTerm[]) =>
  rank(postings, terms, SETTINGS).map((hit) => hit.document);

describe('postings and their ranking', () => {
  const postings = build();

  it('finds a term by its processed form, in the sorted vocabulary', () => {
    expect(findTerm(postings, 'weather')).toBeGreaterThanOrEqual(0);
    expect(findTerm(postings, 'warn')).toBeGreaterThanOrEqual(0);
    // Filler dropped, plural folded (an -ing noun's as its singular, onto warn): no `the`, no `warnings`.
    expect(findTerm(postings, 'the')).toBe(-1);
    expect(findTerm(postings, 'warnings')).toBe(-1);
    expect(postings.documentCount).toBe(4);
  });

  it('matches exactly, then longer terms a word begins and terms one typo away, each only when asked', () => {
    expect(ranked(postings, query('weather'))).toEqual([2]);
    expect(ranked(postings, query('weath'))).toEqual([]);
    expect(ranked(postings, query('weath', true))).toEqual([2]);
    // One letter changed, dropped or added.
    expect(ranked(postings, query('wheather', true))).toEqual([2]);
    expect(ranked(postings, query('holdr', true))).toEqual([3]);
    expect(ranked(postings, query('tokenn', true))).toEqual([3]);
    // Two edits away is not a typo.
    expect(ranked(postings, query('hldr', true))).toEqual([]);
  });

  it("matches terms sharing a word's first letters when asked (another form of it), and a swap of two letters as a typo", () => {
    // `largely` is no term and no prefix of one; with its first five letters shared it finds `largest`.
    expect(ranked(postings, query('largely'))).toEqual([]);
    expect(ranked(postings, { ...query('largely'), shared: 5 })).toEqual([3]);
    expect(ranked(postings, query('tokne', true))).toEqual([3]);
  });

  it('ranks a document matching more of the request first, and weighs the fields', () => {
    const hits = rank(postings, [query('chain'), query('gas')], SETTINGS);
    expect(hits.map((hit) => hit.document)).toEqual([0, 1]);
    expect(hits[0]?.matched).toEqual([0, 1]);
    expect(hits[1]?.matched).toEqual([0]);
    // `block` in the name field (boost 2) outweighs the same word in a description.
    const both = build([
      [['block'], ['other']],
      [['other'], ['block']],
    ]);
    expect(ranked(both, query('block'))).toEqual([0, 1]);
  });

  it('reads back from bytes what it wrote, and refuses a cut or foreign file', () => {
    const bytes = encodePostings(postings);
    const read = decodePostings(bytes) as Postings;
    expect(read).not.toBeNull();
    expect(rank(read, [query('weath', true), query('district')], SETTINGS)).toEqual(
      rank(postings, [query('weath', true), query('district')], SETTINGS),
    );
    expect(decodePostings(bytes.subarray(0, bytes.length - 1))).toBeNull();
    expect(decodePostings(Buffer.from('{"format": 4, "entries": {}}'))).toBeNull();
    expect(decodePostings(Buffer.alloc(0))).toBeNull();
  });

  // Whole and of this format, each count agreeing, but a start array leaving its range inside: read
  // back, a search's typo pass walked billions of entries (lengthStart), or scored a document
  // `undefined` (fieldStart), or a term ran past the vocabulary (termStart).
  it('refuses a file whose start arrays do not ascend inside what they index', () => {
    const arrays = (p: Postings) => ({ termStart: p.termStart, fieldStart: p.fieldStart, lengthStart: p.lengthStart });
    const damaged = (name: keyof ReturnType<typeof arrays>, at: number, value: number) => {
      const copy = arrays(postings)[name].slice();
      copy[at] = value;
      return encodePostings({ ...postings, [name]: copy });
    };
    const last = (array: Uint32Array) => array.length - 1;
    for (const name of ['termStart', 'fieldStart', 'lengthStart'] as const) {
      expect(last(postings[name])).toBeGreaterThan(1);
      expect(decodePostings(damaged(name, 1, 2 ** 32 - 1)), `${name} past its range`).toBeNull();
      expect(decodePostings(damaged(name, 0, 1)), `${name} not from 0`).toBeNull();
    }
    // Descending inside the range.
    const middle = Math.floor(last(postings.fieldStart) / 2);
    const fieldStart = postings.fieldStart.slice();
    fieldStart[middle] = (fieldStart[middle + 1] as number) + 1;
    expect(fieldStart[middle]).toBeLessThanOrEqual(postings.documents.length);
    expect(decodePostings(encodePostings({ ...postings, fieldStart }))).toBeNull();
    // Unchanged, it still reads.
    expect(decodePostings(encodePostings({ ...postings, ...arrays(postings) }))).not.toBeNull();
  });

  // Whole and consistent arrays, but header numbers no build writes: a NaN, negative or infinite
  // average field length scored every document of the field NaN or negative; counts that are text
  // or fractions were coerced; an array-like average list was copied entry by entry.
  it('refuses a header whose counts or average field lengths are not what a build writes', () => {
    const withHeader = (edit: (header: Record<string, unknown>) => void) => {
      const bytes = encodePostings(postings);
      const length = bytes.readUInt32LE(0);
      const header = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8')) as Record<string, unknown>;
      edit(header);
      const head = Buffer.from(JSON.stringify(header), 'utf8');
      const size = Buffer.alloc(4);
      size.writeUInt32LE(head.length);
      return Buffer.concat([size, head, bytes.subarray(4 + length)]);
    };
    const averages = [...postings.averageFieldLength];
    expect(decodePostings(withHeader(() => undefined))).not.toBeNull();
    for (const bad of [null, -1, '3', -0.5]) {
      expect(
        decodePostings(withHeader((h) => (h.averageFieldLength = [bad, ...averages.slice(1)]))),
        `${bad}`,
      ).toBeNull();
    }
    expect(decodePostings(withHeader((h) => (h.averageFieldLength = { length: 1e8 })))).toBeNull();
    expect(decodePostings(withHeader((h) => (h.documentCount = String(postings.documentCount))))).toBeNull();
    expect(decodePostings(withHeader((h) => (h.documentCount = postings.documentCount + 0.5)))).toBeNull();
    expect(decodePostings(withHeader((h) => (h.fieldCount = String(postings.fieldCount))))).toBeNull();
    // A term said to be in more documents than there are gave a negative inverse document frequency.
    const documentFrequency = postings.documentFrequency.slice();
    documentFrequency[0] = postings.documentCount + 1;
    expect(decodePostings(encodePostings({ ...postings, documentFrequency }))).toBeNull();
  });
});

describe('the index cache', () => {
  const project = tempProject();
  afterAll(() => project.remove());
  /** The postings of `documents` through the cache in `dir`, keyed by their text. */
  const cached = (dir: string, documents: readonly (readonly string[])[][], build: () => Postings) =>
    cachedPostings(dir, () => textKey('index', documents), documents.length, build);
  const counting = () => {
    const calls = { builds: 0 };
    return {
      calls,
      build: (documents: readonly (readonly string[])[][]) => () => ((calls.builds += 1), build(documents)),
    };
  };

  it('builds once, then reads what it stored while the documents are the same', async () => {
    const dir = join(project.dir, 'same');
    const { calls, build: builder } = counting();
    const first = cached(dir, DOCUMENTS, builder(DOCUMENTS));
    expect(first.cached).toBe(false);
    await first.stored;
    expect(calls.builds).toBe(1);
    expect(readdirSync(dir)).toHaveLength(1);
    const again = cached(
      dir,
      DOCUMENTS.map((fields) => fields.map((pieces) => [...pieces])),
      builder(DOCUMENTS),
    );
    expect(calls.builds).toBe(1);
    expect(again.cached).toBe(true);
    expect(ranked(again.postings, query('holder'))).toEqual(ranked(first.postings, query('holder')));
  });

  it('misses when one word of one document changed, and serves the changed text', () => {
    const dir = join(project.dir, 'changed');
    const { calls, build: builder } = counting();
    cached(dir, DOCUMENTS, builder(DOCUMENTS));
    const changed = DOCUMENTS.map((fields, index) =>
      index === 3 ? [['getTokenOwners'], ['Owners of a token, largest first']] : fields,
    );
    const { postings } = cached(dir, changed, builder(changed));
    expect(calls.builds).toBe(2);
    expect(ranked(postings, query('owner'))).toEqual([3]);
    expect(ranked(postings, query('holder'))).toEqual([]);
  });

  it('builds afresh over a broken file, and builds anyway where nothing can be written', async () => {
    const dir = join(project.dir, 'broken');
    const { calls, build: builder } = counting();
    await cached(dir, DOCUMENTS, builder(DOCUMENTS)).stored;
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file as string), readFileSync(join(dir, file as string)).subarray(0, 100));
    expect(ranked(cached(dir, DOCUMENTS, builder(DOCUMENTS)).postings, query('gas'))).toEqual([0]);
    expect(calls.builds).toBe(2);
    // Whole again: the next one reads it.
    cached(dir, DOCUMENTS, builder(DOCUMENTS));
    expect(calls.builds).toBe(2);

    // A file where the folder should be: the cache cannot be made, the index can.
    const blocked = join(project.dir, 'blocked');
    writeFileSync(blocked, '');
    expect(ranked(cached(join(blocked, 'search'), DOCUMENTS, builder(DOCUMENTS)).postings, query('gas'))).toEqual([0]);
  });

  it('keeps a few indexes, the newest', async () => {
    const dir = join(project.dir, 'many');
    for (let round = 0; round < 11; round += 1)
      await cached(dir, [[[`tool${round}`], ['text']]], () => build([[[`tool${round}`], ['text']]])).stored;
    expect(readdirSync(dir).filter((name) => name.endsWith('.index'))).toHaveLength(8);
  });

  it("gives a catalog's ToolIndex the same answers read from the cache as built", async () => {
    const served = tempProject();
    const catalog = await Catalog.load({ schemas: SCHEMAS, project: served.dir, env: {} });
    try {
      const tools = catalog.visibleTools();
      const cacheDir = searchCacheDir(served.dir);
      const built = new ToolIndex(tools);
      const stored = new ToolIndex(tools, { cacheDir });
      await stored.termsStored;
      const read = new ToolIndex(tools, { cacheDir });
      expect([built.fromCache, stored.fromCache, read.fromCache]).toEqual([false, false, true]);
      for (const request of ['storm alerts for my district', 'wheather forecast', 'Wetterwarnungen', 'gold price']) {
        expect(read.find(request, { limit: 5 })).toEqual(built.find(request, { limit: 5 }));
      }
    } finally {
      await catalog.close();
      served.remove();
    }
  });
});
