// Text counted into terms (term-counter.ts) straight into a PostingsBuilder, and a file's terms read
// back from it as the per-file cache keeps them (postings.ts `termDocuments`): every occurrence and
// every distinct word counted; a field shared by a file's tools made as if each had its own copy; a
// field of one piece the same as its words in several; the terms read back and added again as a
// cached file is give the same postings; and a builder told to expect nothing (every array grown
// mid-build, past its first size) counts what one sized for the whole build counts.

import { describe, expect, it } from 'vitest';
import { PostingsBuilder } from '../../src/discovery/postings.js';
import { TermCounter } from '../../src/discovery/term-counter.js';
import { splitWords, term } from '../../src/discovery/words.js';

type Documents = readonly (readonly (readonly string[])[])[];

// Two fields (a name, a description) per document.
const DOCUMENTS: string[][][] = [
  [['getGasPrice'], ['The gas price on a chain, in gwei']],
  [['getBlockNumber'], ['The latest block of the chain']],
  [['getWeatherWarnings'], ['Severe weather warnings for a district']],
  [['getTokenHolders'], ['Holders of a token, largest first']],
];

/** A builder with `documents` counted into it, as ToolIndex counts the files whose terms are not cached. */
function counted(documents: Documents, expectedDocuments = documents.length): PostingsBuilder {
  const builder = new PostingsBuilder((documents[0] ?? []).length, expectedDocuments);
  const counter = new TermCounter(builder, splitWords, term);
  for (const fields of documents) counter.add(fields);
  return builder;
}

describe("a file's terms", () => {
  /** The terms of `documents` read back from a builder they were counted into, as the per-file cache keeps them. */
  const make = (documents: Documents) => counted(documents).termDocuments(documents.map((_fields, at) => at));

  it('counts every occurrence of a term and every distinct word of a field, across its pieces', () => {
    const { terms, tools } = make([[['gas price gas', 'Gas'], ['prices']]]);
    // Words are told apart by case (`gas`, `Gas`), terms are not; `prices` folds onto `price`.
    expect(terms).toEqual(['gas', 'price']);
    expect(tools).toEqual([
      [
        [3, 0, 3, 1, 1],
        [1, 1, 1],
      ],
    ]);
  });

  it("makes a field shared by a file's tools as if each had its own copy, and gives the next file its own term indices for it", () => {
    const shared = ['Weather and gas prices of a chain'];
    const first = [
      [['getGasPrice'], shared],
      [['getBlock'], shared],
    ];
    const second = [
      [['getWeather'], shared],
      [['getRain'], shared],
    ];
    const copied = (documents: string[][][]) => documents.map((fields) => fields.map((pieces) => [...pieces]));
    // Both files counted into one builder, as one build counts every file not cached.
    const builder = counted([...first, ...second]);
    expect(builder.termDocuments([0, 1])).toEqual(make(copied(first)));
    // The shared field met again in another file: its terms indexed in that file's order (weather first), not the first file's.
    const again = builder.termDocuments([2, 3]);
    expect(again).toEqual(make(copied(second)));
    expect(again.terms[0]).toBe('weather');
  });

  it('gives, read back and added again as a cached file is, the same postings as counted', () => {
    const documents = [
      ...DOCUMENTS,
      // A field of filler words only (distinct words, no terms), a word more than 255 times, a field shared.
      [['getTheList'], ['a '.repeat(3) + 'price '.repeat(300)]],
      [['getTheList'], DOCUMENTS[0]?.[1] as string[]],
    ];
    const builder = counted(documents);
    const files = [[0, 2, 4], [1, 3], [5]];
    const again = new PostingsBuilder(2);
    const read = files.map((members) => {
      const terms = builder.termDocuments(members);
      return { members, terms, ids: again.intern(terms.terms) };
    });
    const byDocument = read.flatMap(({ members, terms, ids }) =>
      members.map((document, at) => ({ document, fields: terms.tools[at] as number[][], ids })),
    );
    byDocument.sort((a, b) => a.document - b.document);
    for (const { fields, ids } of byDocument) again.add(fields, ids);
    expect(again.build()).toEqual(builder.build());
    // Two distinct words (`a`, `price`); the count kept whole in the file's terms (the postings cap it at 255).
    expect(builder.termDocuments([4]).tools[0]?.[1]).toEqual([2, 0, 300]);
  });
});

describe('counting', () => {
  it('counts a field of one piece as the same words in several pieces', () => {
    const one = counted([[['gas price gas Gas']]]).termDocuments([0]);
    const several = counted([[['gas price', 'gas', 'Gas']]]).termDocuments([0]);
    expect(one).toEqual(several);
    expect(one.tools).toEqual([[[3, 0, 3, 1, 1]]]);
  });

  it('counts the same when every array grows mid-build as when each was made big enough at once', () => {
    // Thousands of distinct words and terms, a piece of more words than any first size, fields of many pieces.
    const words = Array.from({ length: 6000 }, (_unused, n) => `w${n.toString(36)}x`);
    const long = words.join(' ');
    const documents = Array.from({ length: 60 }, (_unused, d) => [
      [`tool${d}`, `alias${d}`],
      words.slice(d * 100, d * 100 + 100),
      d === 30 ? [long, long] : [words.slice(d * 50, d * 50 + 400).join(' ')],
    ]);
    const grown = counted(documents, 0);
    const sized = counted(documents, 100_000);
    expect(grown.build()).toEqual(sized.build());
    const everyDocument = documents.map((_fields, at) => at);
    expect(grown.termDocuments(everyDocument)).toEqual(sized.termDocuments(everyDocument));
    // The long piece twice: each of its words counted twice, its distinct words once.
    const [, , field] = grown.termDocuments([30]).tools[0] as number[][];
    expect(field?.[0]).toBe(6000);
    expect(field?.filter((_n, at) => at > 0 && at % 2 === 0).every((count) => count === 2)).toBe(true);
  });
});
