// The expensive part of building the search index: tools' text as counted search terms. Each
// distinct piece of text is split into words once per build, each distinct word made into terms
// once (words.ts: folded, looked up in the word tables, stemmed), and a field's terms are then
// counted over those ids and added to the postings (postings.ts) under the builder's term ids,
// with no per-file or per-tool arrays in between (the per-file entries of term-cache.ts are read
// back from the postings afterwards, off a start's path: PostingsBuilder.termDocuments).
// Everything a piece or a word is made into lives in one flat typed array, not in an object and
// arrays per piece: a cold start spent more on collecting those (they all survive the build) and
// on compiling the code that made them than on the words.

import type { PostingsBuilder } from './postings.js';
import type { PieceDocument } from './term-documents.js';

/** Room the pool and the scratch arrays get when first used; each doubles when full. */
const FIRST_SIZE = 1 << 12;
/** Room made at the start per document the builder expects (the 3.0.0 catalog: 101 numbers of the pool, 4.6 words and 2.8 terms a tool). */
const POOL_PER_DOCUMENT = 128;
const IDS_PER_DOCUMENT = 8;
/**
 * Where every growing array starts: it is replaced in the constructor (sized for the documents the
 * builder expects) or on first use. V8 compiles a field it has only seen assigned once as a
 * constant, and throws the compiled code away when it is first replaced (mid-build, once the code
 * is hot): replaced from the start, the field is a variable.
 */
const EMPTY = new Int32Array(0);

export class TermCounter {
  /** Piece → where it begins in `pool`: [distinct words, their word ids..., distinct terms, (term id, count)...]. */
  private readonly pieceAt = new Map<string, number>();
  private readonly wordIds = new Map<string, number>();
  /** Word id → where its terms begin in `pool`: [how many, term ids...]. */
  private wordAt = EMPTY;
  private pool = EMPTY;
  private used = 0;
  /** A piece's word ids in order, repeats kept, while it is made. */
  private sequence = EMPTY;
  // Scratch per word and per term, stamped with the field or piece (one counter for both) that last used it: no set made per field.
  private wordSeen = EMPTY;
  private wordInPiece = EMPTY;
  private termCount = EMPTY;
  private termInPiece = EMPTY;
  private termSlot = EMPTY;
  private touched = EMPTY;
  private stamp = 0;
  /**
   * Per field, what was counted last: its pieces (the same array again, a field every route of a
   * schema shares, documents.ts, is not counted again), its (term id, count) pairs and its
   * distinct words.
   */
  private readonly lastPieces: (readonly string[] | undefined)[];
  private readonly pairs: Int32Array[];
  private readonly pairCount: Int32Array;
  private readonly distinctWords: Int32Array;

  constructor(
    private readonly builder: PostingsBuilder,
    private readonly split: (text: string) => string[],
    private readonly termsOf: (word: string) => readonly string[],
  ) {
    const fields = builder.fieldCount;
    this.lastPieces = new Array<readonly string[] | undefined>(fields).fill(undefined);
    this.pairs = Array.from({ length: fields }, () => EMPTY);
    this.pairCount = new Int32Array(fields);
    this.distinctWords = new Int32Array(fields);
    const ids = IDS_PER_DOCUMENT * builder.expectedDocuments;
    this.pool = grown(this.pool, POOL_PER_DOCUMENT * builder.expectedDocuments);
    this.wordAt = grown(this.wordAt, ids);
    this.wordSeen = grown(this.wordSeen, ids);
    this.wordInPiece = grown(this.wordInPiece, ids);
    this.termCount = grown(this.termCount, ids);
    this.termInPiece = grown(this.termInPiece, ids);
    this.termSlot = grown(this.termSlot, ids);
  }

  /** Adds a tool's text (its pieces per field, in the builder's field order) to the postings; returns its document number. */
  add(document: PieceDocument): number {
    for (let field = 0; field < document.length; field += 1) {
      this.count(field, document[field] as readonly string[]);
      this.builder.addField(
        field,
        this.pairs[field] as Int32Array,
        this.pairCount[field] as number,
        this.distinctWords[field] as number,
      );
    }
    return this.builder.endDocument();
  }

  /**
   * One field's (term id, count) pairs, each distinct term once in the order it first comes, and
   * its distinct words (words told apart by case, as written). A term counts every occurrence.
   */
  private count(field: number, pieces: readonly string[]): void {
    if (pieces === this.lastPieces[field]) return;
    this.lastPieces[field] = pieces;
    if (pieces.length === 1) {
      this.countPiece(field, pieces[0] as string);
      return;
    }
    this.stamp += 1;
    const stamp = this.stamp;
    let distinct = 0;
    let touchedCount = 0;
    for (let p = 0; p < pieces.length; p += 1) {
      const at = this.pieceOf(pieces[p] as string);
      // Read after pieceOf, which may have grown them.
      const { pool, wordSeen, termCount } = this;
      const words = pool[at] as number;
      for (let w = at + 1; w <= at + words; w += 1) {
        const word = pool[w] as number;
        if (wordSeen[word] !== stamp) {
          wordSeen[word] = stamp;
          distinct += 1;
        }
      }
      const termsAt = at + 1 + words;
      const end = termsAt + 1 + 2 * (pool[termsAt] as number);
      if (touchedCount + (end - termsAt) > this.touched.length)
        this.touched = grown(this.touched, touchedCount + (end - termsAt));
      const touched = this.touched;
      for (let t = termsAt + 1; t < end; t += 2) {
        const term = pool[t] as number;
        if (termCount[term] === 0) touched[touchedCount++] = term;
        termCount[term] = (termCount[term] as number) + (pool[t + 1] as number);
      }
    }
    if (2 * touchedCount > (this.pairs[field] as Int32Array).length)
      this.pairs[field] = grown(this.pairs[field] as Int32Array<ArrayBuffer>, 2 * touchedCount);
    const out = this.pairs[field] as Int32Array;
    const { termCount, touched } = this;
    for (let i = 0; i < touchedCount; i += 1) {
      const term = touched[i] as number;
      out[2 * i] = term;
      out[2 * i + 1] = termCount[term] as number;
      termCount[term] = 0;
    }
    this.pairCount[field] = touchedCount;
    this.distinctWords[field] = distinct;
  }

  /** A field of one piece: the piece's own distinct words and (term id, count) pairs, as they are. */
  private countPiece(field: number, piece: string): void {
    const at = this.pieceOf(piece);
    const words = this.pool[at] as number;
    const termsAt = at + 1 + words;
    const count = this.pool[termsAt] as number;
    if (2 * count > (this.pairs[field] as Int32Array).length)
      this.pairs[field] = grown(this.pairs[field] as Int32Array<ArrayBuffer>, 2 * count);
    (this.pairs[field] as Int32Array).set(this.pool.subarray(termsAt + 1, termsAt + 1 + 2 * count));
    this.pairCount[field] = count;
    this.distinctWords[field] = words;
  }

  /** Where the piece begins in `pool`, made the first time it is met. */
  private pieceOf(piece: string): number {
    const found = this.pieceAt.get(piece);
    if (found !== undefined) return found;
    const split = this.split(piece);
    if (split.length > this.sequence.length) this.sequence = grown(this.sequence, split.length);
    const { sequence, wordIds } = this;
    // The lookup here, not in a method: most words were met before, and a call per word costs while the code is not optimised yet.
    for (let w = 0; w < split.length; w += 1) {
      const word = split[w] as string;
      sequence[w] = wordIds.get(word) ?? this.newWord(word);
    }
    this.stamp += 1;
    const stamp = this.stamp;
    // At most: the two counts, every word, and two numbers for each of a word's terms (two at most: words.ts `term`).
    this.reserve(2 + 5 * split.length);
    const { pool, wordAt, wordInPiece, termInPiece, termSlot } = this;
    const at = this.used;
    let next = at + 1;
    for (let w = 0; w < split.length; w += 1) {
      const word = sequence[w] as number;
      if (wordInPiece[word] !== stamp) {
        wordInPiece[word] = stamp;
        pool[next++] = word;
      }
    }
    pool[at] = next - at - 1;
    const termsAt = next++;
    for (let w = 0; w < split.length; w += 1) {
      const termsOfWord = wordAt[sequence[w] as number] as number;
      // Every occurrence's terms: a word twice in the piece counts twice.
      for (let t = termsOfWord + 1; t <= termsOfWord + (pool[termsOfWord] as number); t += 1) {
        const term = pool[t] as number;
        if (termInPiece[term] === stamp) {
          const slot = termSlot[term] as number;
          pool[slot] = (pool[slot] as number) + 1;
        } else {
          termInPiece[term] = stamp;
          pool[next] = term;
          pool[next + 1] = 1;
          termSlot[term] = next + 1;
          next += 2;
        }
      }
    }
    pool[termsAt] = (next - termsAt - 1) / 2;
    this.used = next;
    this.pieceAt.set(piece, at);
    return at;
  }

  /** A word met for the first time: its id, its terms in the pool. */
  private newWord(word: string): number {
    const id = this.wordIds.size;
    this.wordIds.set(word, id);
    if (id >= this.wordAt.length) {
      this.wordAt = grown(this.wordAt, id + 1);
      this.wordSeen = grown(this.wordSeen, id + 1);
      this.wordInPiece = grown(this.wordInPiece, id + 1);
    }
    const terms = this.termsOf(word);
    this.reserve(1 + terms.length);
    const at = this.used;
    this.pool[at] = terms.length;
    for (let t = 0; t < terms.length; t += 1) this.pool[at + 1 + t] = this.termId(terms[t] as string);
    this.used = at + 1 + terms.length;
    this.wordAt[id] = at;
    return id;
  }

  /** The builder's id of a term, with room for it in the scratch arrays. */
  private termId(term: string): number {
    const id = this.builder.termId(term);
    if (id >= this.termCount.length) {
      this.termCount = grown(this.termCount, id + 1);
      this.termInPiece = grown(this.termInPiece, id + 1);
      this.termSlot = grown(this.termSlot, id + 1);
    }
    return id;
  }

  /** Room for `more` numbers at the end of the pool. */
  private reserve(more: number): void {
    if (this.used + more > this.pool.length) this.pool = grown(this.pool, this.used + more);
  }
}

/** `array` copied into one at least twice as long (FIRST_SIZE at least) and at least `needed` long. */
function grown(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  let size = Math.max(array.length * 2, FIRST_SIZE);
  while (size < needed) size *= 2;
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}
