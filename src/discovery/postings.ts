// The search index's storage: every term of every tool in a few typed arrays instead of a map per
// term, field and document (MiniSearch's layout, which cost 8.6 MiB and 160 ms on the 3.0.0
// catalog's 1,885 tools; this one about a fifth of that). The vocabulary is one string with
// offsets, sorted, so that a term is found by binary search, a prefix by a range and a typo by a
// scan of the terms one letter longer or shorter. Built once from the documents; a changed catalog
// gets a new one.

import type { TermDocuments } from './term-documents.js';

/** A term's occurrences in one field of one document are counted up to this (BM25 saturates long before). */
const MAX_FREQUENCY = 255;
/** Postings the builder has room for at least, and per document it is told to expect (the 3.0.0 catalog has 46 a tool). */
const INITIAL_POSTINGS = 4096;
const POSTINGS_PER_DOCUMENT = 64;

export interface Postings {
  readonly documentCount: number;
  readonly fieldCount: number;
  /** The sorted terms, back to back; term i is `text.slice(termStart[i], termStart[i + 1])`. */
  readonly text: string;
  readonly termStart: Uint32Array;
  /** Term t's documents in field f are `documents[fieldStart[t * fieldCount + f] ..< fieldStart[t * fieldCount + f + 1]]`, ascending. */
  readonly fieldStart: Uint32Array;
  readonly documents: Uint16Array | Uint32Array;
  /** How often the term occurs there, beside each entry of `documents`. */
  readonly frequencies: Uint8Array;
  /** How many documents have term t in any field. */
  readonly documentFrequency: Uint32Array;
  /** Distinct words of document d's field f, at `d * fieldCount + f`. */
  readonly fieldLength: Uint16Array;
  readonly averageFieldLength: Float64Array;
  /** Term ids ordered by their length; those of length n are `byLength[lengthStart[n] ..< lengthStart[n + 1]]`. */
  readonly byLength: Uint32Array;
  readonly lengthStart: Uint32Array;
}

/**
 * Gathers documents into Postings: counted by term-counter.ts (`addField`, `endDocument`), or read
 * from the per-file cache as term-documents.ts keeps them (`intern` once per file, then `add`).
 * Either way no string work per posting.
 */
export class PostingsBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  // Per term: the last document that counted it, and in how many documents it is.
  private readonly termSeenIn: number[] = [];
  private readonly documentFrequency: number[] = [];
  // The postings as they come, document by document, field by field: typed arrays, grown by doubling (a catalog has a hundred thousand postings; arrays of numbers on the heap cost a cold start its collections).
  private postTerm = new Uint32Array(0);
  private postField = new Uint8Array(0);
  private postDocument = new Uint32Array(0);
  /** How often, uncapped: the per-file entries read back by `termDocuments` keep the count. */
  private postOccurrences = new Uint32Array(0);
  private postCount = 0;
  /** Where each document's postings end. */
  private readonly documentEnd: number[] = [];
  private readonly fieldLength: number[] = [];
  private readonly averageFieldLength: Float64Array;
  private documentCount = 0;
  /** Scratch for `add`: a cached field's pairs under the builder's term ids. */
  private scratch = new Int32Array(256);

  /**
   * `expectedDocuments`: how many documents will be added, so that the arrays (here and in
   * term-counter.ts) are made once, big enough: grown in the middle of a build, they cost the
   * code V8 had compiled for it (it had never seen them grow, nor replaced: see term-counter.ts).
   */
  constructor(
    readonly fieldCount: number,
    readonly expectedDocuments = 0,
  ) {
    this.averageFieldLength = new Float64Array(fieldCount);
    this.grow(POSTINGS_PER_DOCUMENT * expectedDocuments);
  }

  /** The builder's id of a term. */
  termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      this.termSeenIn.push(0);
      this.documentFrequency.push(0);
    }
    return id;
  }

  /** The builder's ids of a file's terms (TermDocuments.terms), for `add`. */
  intern(terms: readonly string[]): Uint32Array {
    const ids = new Uint32Array(terms.length);
    for (let index = 0; index < terms.length; index += 1) ids[index] = this.termId(terms[index] as string);
    return ids;
  }

  /** Adds a document as a file's cached terms have it (per field: its distinct words, then pairs of a term's index in `ids` and its count) and returns its number. */
  add(fields: readonly (readonly number[])[], ids: Uint32Array): number {
    for (let field = 0; field < this.fieldCount; field += 1) {
      const entry = fields[field] as readonly number[];
      if (entry.length > this.scratch.length) this.scratch = new Int32Array(2 * entry.length);
      const pairs = this.scratch;
      for (let at = 1; at < entry.length; at += 2) {
        pairs[at - 1] = ids[entry[at] as number] as number;
        pairs[at] = entry[at + 1] as number;
      }
      this.addField(field, pairs, entry.length >> 1, entry[0] as number);
    }
    return this.endDocument();
  }

  /** Adds field `field` (in order, 0 first) of the document being added: `count` pairs of (term id, how often) in `pairs`, and its distinct words. */
  addField(field: number, pairs: Int32Array, count: number, distinctWords: number): void {
    const document = this.documentCount;
    if (this.postCount + count > this.postTerm.length) this.grow(this.postCount + count);
    // Read once, not per posting: this runs a hundred thousand times at a cold start, mostly before V8 has optimised it.
    const { postTerm, postField, postDocument, postOccurrences, termSeenIn, documentFrequency } = this;
    let post = this.postCount;
    for (let pair = 0; pair < 2 * count; pair += 2, post += 1) {
      const term = pairs[pair] as number;
      postTerm[post] = term;
      postField[post] = field;
      postDocument[post] = document;
      postOccurrences[post] = pairs[pair + 1] as number;
      if (termSeenIn[term] !== document + 1) {
        termSeenIn[term] = document + 1;
        documentFrequency[term] = (documentFrequency[term] as number) + 1;
      }
    }
    this.postCount = post;
    this.fieldLength.push(distinctWords);
    // A running mean, as MiniSearch keeps it: the same figures, so the same scores.
    this.averageFieldLength[field] =
      ((this.averageFieldLength[field] as number) * document + distinctWords) / (document + 1);
  }

  /** Ends the document being added (its fields all added) and returns its number. */
  endDocument(): number {
    this.documentEnd.push(this.postCount);
    this.documentCount += 1;
    return this.documentCount - 1;
  }

  /**
   * The documents `documents` (one schema file's tools, in order) as the per-file cache keeps
   * them (term-documents.ts): the file's terms in the order they first come, then per tool and
   * field its distinct words and (index into those terms, how often) pairs in the order they
   * were counted. Read back from the postings after the build, for the cache's deferred write.
   */
  termDocuments(documents: readonly number[]): TermDocuments {
    const local = new Map<number, number>();
    const terms: string[] = [];
    const tools = documents.map((document) => {
      let post = document === 0 ? 0 : (this.documentEnd[document - 1] as number);
      const end = this.documentEnd[document] as number;
      const fields: number[][] = [];
      for (let field = 0; field < this.fieldCount; field += 1) {
        const entry = [this.fieldLength[document * this.fieldCount + field] as number];
        for (; post < end && this.postField[post] === field; post += 1) {
          const term = this.postTerm[post] as number;
          let index = local.get(term);
          if (index === undefined) {
            index = terms.length;
            local.set(term, index);
            terms.push(this.terms[term] as string);
          }
          entry.push(index, this.postOccurrences[post] as number);
        }
        fields.push(entry);
      }
      return fields;
    });
    return { terms, tools };
  }

  /** Room for at least `needed` postings. */
  private grow(needed: number): void {
    let size = Math.max(this.postTerm.length * 2, INITIAL_POSTINGS);
    while (size < needed) size *= 2;
    const grown = <T extends Uint8Array | Uint32Array>(from: T, to: T): T => (to.set(from), to);
    this.postTerm = grown(this.postTerm, new Uint32Array(size));
    this.postField = grown(this.postField, new Uint8Array(size));
    this.postDocument = grown(this.postDocument, new Uint32Array(size));
    this.postOccurrences = grown(this.postOccurrences, new Uint32Array(size));
  }

  build(): Postings {
    const { fieldCount, postCount } = this;
    const sorted = [...this.terms].sort();
    // Old id → its place in the sorted vocabulary.
    const rank = new Uint32Array(sorted.length);
    sorted.forEach((term, place) => (rank[this.termIds.get(term) as number] = place));
    const termStart = new Uint32Array(sorted.length + 1);
    sorted.forEach((term, place) => (termStart[place + 1] = (termStart[place] as number) + term.length));

    // Each posting's slot (its term's place, its field), once: a plain array, not a callback per posting.
    const { postTerm, postField, postDocument, postOccurrences } = this;
    const slots = new Uint32Array(postCount);
    for (let i = 0; i < postCount; i += 1)
      slots[i] = (rank[postTerm[i] as number] as number) * fieldCount + (postField[i] as number);
    const fieldStart = startsOf(sorted.length * fieldCount, slots);
    const documents = this.documentCount <= 0xffff ? new Uint16Array(postCount) : new Uint32Array(postCount);
    const frequencies = new Uint8Array(postCount);
    const cursor = fieldStart.slice(0, -1);
    // In the order they came: each term's documents stay ascending.
    for (let i = 0; i < postCount; i += 1) {
      const slot = slots[i] as number;
      const at = cursor[slot] as number;
      cursor[slot] = at + 1;
      documents[at] = postDocument[i] as number;
      frequencies[at] = Math.min(postOccurrences[i] as number, MAX_FREQUENCY);
    }
    const documentFrequency = new Uint32Array(sorted.length);
    this.documentFrequency.forEach((count, id) => (documentFrequency[rank[id] as number] = count));
    return {
      documentCount: this.documentCount,
      fieldCount,
      text: sorted.join(''),
      termStart,
      fieldStart,
      documents,
      frequencies,
      documentFrequency,
      fieldLength: Uint16Array.from(this.fieldLength, (length) => Math.min(length, 0xffff)),
      averageFieldLength: this.averageFieldLength,
      ...lengthBuckets(sorted),
    };
  }
}

/** The sorted vocabulary's ids grouped by term length (a counting sort): typo matching looks at neighbouring lengths only. */
function lengthBuckets(sorted: readonly string[]): { byLength: Uint32Array; lengthStart: Uint32Array } {
  const lengths = Uint32Array.from(sorted, (term) => term.length);
  const lengthStart = startsOf(lengths.reduce((max, length) => Math.max(max, length), 0) + 1, lengths);
  const cursor = lengthStart.slice(0, -1);
  const byLength = new Uint32Array(sorted.length);
  sorted.forEach((term, id) => (byLength[(cursor[term.length] as number)++] = id));
  return { byLength, lengthStart };
}

/** Where each of `slots` slots starts when item i goes to slot `slotOf[i]`; one entry more, the end. */
function startsOf(slots: number, slotOf: Uint32Array): Uint32Array {
  const start = new Uint32Array(slots + 1);
  for (let item = 0; item < slotOf.length; item += 1) {
    const next = (slotOf[item] as number) + 1;
    start[next] = (start[next] as number) + 1;
  }
  for (let slot = 1; slot <= slots; slot += 1) start[slot] = (start[slot] as number) + (start[slot - 1] as number);
  return start;
}
