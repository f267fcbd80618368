// The expensive part of building the search index, done per schema file: a file's tools as
// search terms (their text split into words, each word folded, looked up in the word tables and
// stemmed by words.ts), with the counts BM25 needs. What comes out is plain data (the file's terms
// once, then numbers), so that term-cache.ts can keep it per file and postings.ts can assemble an
// index from it with one dictionary lookup per distinct term of a file.

/** One file's tools as terms. */
export interface TermDocuments {
  /** Every term of the file's tools, once each. */
  terms: string[];
  /** Per tool, per field: the field's distinct words, then (index into `terms`, how often) pairs. */
  tools: number[][][];
}

/** A tool's text per field, in pieces (documents.ts). */
export type PieceDocument = readonly (readonly string[])[];

/** A piece of text once split: its distinct words, and its distinct terms (in the order they first come) with how often each does. */
interface Piece {
  words: readonly number[];
  terms: readonly number[];
  counts: readonly number[];
}

/**
 * Turns files' documents into TermDocuments. One maker serves a whole build: a piece of text met
 * before (a parameter described alike in many files) is split once, a word met before is turned
 * into terms once, and every term string is made once.
 */
export class TermDocumentMaker {
  private readonly pieces = new Map<string, Piece>();
  /** Fields made, by their array of pieces, with the file they were made in. */
  private readonly fields = new Map<readonly string[], { file: number; field: number[] }>();
  private readonly wordIds = new Map<string, number>();
  /** Word id → its term ids. */
  private readonly wordTerms: (readonly number[])[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  // Scratch per word and per term, stamped with the field (or file) that last used it: no sets made per field.
  private readonly wordSeenIn: number[] = [];
  private readonly termCount: number[] = [];
  private readonly termLocal: number[] = [];
  private readonly termFile: number[] = [];
  // The same for the piece being made.
  private readonly wordInPiece: number[] = [];
  private readonly termInPiece: number[] = [];
  private readonly termAtInPiece: number[] = [];
  private fieldMark = 0;
  private fileMark = 0;
  private pieceMark = 0;

  constructor(
    private readonly split: (text: string) => string[],
    private readonly termsOf: (word: string) => readonly string[],
  ) {}

  /**
   * The terms of one file's documents (in order). Plain loops, no callbacks: at a start this runs
   * over every piece of every tool before V8 has optimised it, where each closure call costs.
   */
  make(documents: readonly PieceDocument[]): TermDocuments {
    this.fileMark += 1;
    const terms: string[] = [];
    const tools: number[][][] = [];
    for (let d = 0; d < documents.length; d += 1) {
      const fields = documents[d] as PieceDocument;
      const made: number[][] = [];
      for (let f = 0; f < fields.length; f += 1) made.push(this.field(fields[f] as readonly string[], terms));
      tools.push(made);
    }
    return { terms, tools };
  }

  /**
   * One field: its distinct words, then (index into the file's `terms`, how often) pairs; new
   * terms of the file appended to `terms`. The same pieces (one array: a field every route of a
   * schema shares, documents.ts) give the same field within a file: made once there.
   */
  private field(pieces: readonly string[], terms: string[]): number[] {
    const made = this.fields.get(pieces);
    if (made !== undefined && made.file === this.fileMark) return made.field;
    const field = this.countField(pieces, terms);
    this.fields.set(pieces, { file: this.fileMark, field });
    return field;
  }

  private countField(pieces: readonly string[], terms: string[]): number[] {
    this.fieldMark += 1;
    const touched: number[] = [];
    let distinctWords = 0;
    for (let p = 0; p < pieces.length; p += 1) {
      const { words, terms: pieceTerms, counts } = this.pieceOf(pieces[p] as string);
      for (let w = 0; w < words.length; w += 1) {
        const word = words[w] as number;
        if (this.wordSeenIn[word] !== this.fieldMark) {
          this.wordSeenIn[word] = this.fieldMark;
          distinctWords += 1;
        }
      }
      for (let t = 0; t < pieceTerms.length; t += 1) {
        const term = pieceTerms[t] as number;
        if (this.termCount[term] === 0) touched.push(term);
        this.termCount[term] = (this.termCount[term] as number) + (counts[t] as number);
      }
    }
    const field = [distinctWords];
    for (let t = 0; t < touched.length; t += 1) {
      const term = touched[t] as number;
      if (this.termFile[term] !== this.fileMark) {
        this.termFile[term] = this.fileMark;
        this.termLocal[term] = terms.length;
        terms.push(this.terms[term] as string);
      }
      field.push(this.termLocal[term] as number, this.termCount[term] as number);
      this.termCount[term] = 0;
    }
    return field;
  }

  /**
   * A piece made once per distinct piece, its words and terms counted there: a field then adds
   * each distinct term of a piece once, in the same order (so to the same result) as word by word.
   */
  private pieceOf(piece: string): Piece {
    let found = this.pieces.get(piece);
    if (found === undefined) {
      this.pieceMark += 1;
      const split = this.split(piece);
      const words: number[] = [];
      const terms: number[] = [];
      const counts: number[] = [];
      for (let w = 0; w < split.length; w += 1) {
        const word = this.wordId(split[w] as string);
        if (this.wordInPiece[word] !== this.pieceMark) {
          this.wordInPiece[word] = this.pieceMark;
          words.push(word);
        }
        // Every occurrence's terms: a word twice in the piece counts twice.
        const wordTerms = this.wordTerms[word] as readonly number[];
        for (let t = 0; t < wordTerms.length; t += 1) {
          const term = wordTerms[t] as number;
          if (this.termInPiece[term] === this.pieceMark) {
            const at = this.termAtInPiece[term] as number;
            counts[at] = (counts[at] as number) + 1;
          } else {
            this.termInPiece[term] = this.pieceMark;
            this.termAtInPiece[term] = terms.length;
            terms.push(term);
            counts.push(1);
          }
        }
      }
      found = { words, terms, counts };
      this.pieces.set(piece, found);
    }
    return found;
  }

  private wordId(word: string): number {
    let id = this.wordIds.get(word);
    if (id === undefined) {
      id = this.wordTerms.length;
      this.wordIds.set(word, id);
      const terms = this.termsOf(word);
      const ids: number[] = [];
      for (let t = 0; t < terms.length; t += 1) ids.push(this.termId(terms[t] as string));
      this.wordTerms.push(ids);
      this.wordSeenIn.push(0);
      this.wordInPiece.push(0);
    }
    return id;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      this.termCount.push(0);
      this.termLocal.push(0);
      this.termFile.push(0);
      this.termInPiece.push(0);
      this.termAtInPiece.push(0);
    }
    return id;
  }
}

/** Whether `value` (read from a cache file) is TermDocuments of `tools` tools with `fieldCount` fields each, every index in range. */
export function isTermDocuments(value: unknown, tools: number, fieldCount: number): value is TermDocuments {
  if (typeof value !== 'object' || value === null) return false;
  const { terms, tools: documents } = value as Partial<TermDocuments>;
  if (!Array.isArray(terms) || !terms.every((term) => typeof term === 'string' && term !== '')) return false;
  if (!Array.isArray(documents) || documents.length !== tools) return false;
  const count = (n: unknown, min: number, max: number) =>
    Number.isInteger(n) && (n as number) >= min && (n as number) < max;
  return documents.every(
    (fields) =>
      Array.isArray(fields) &&
      fields.length === fieldCount &&
      fields.every(
        (field) =>
          Array.isArray(field) &&
          field.length % 2 === 1 &&
          count(field[0], 0, 2 ** 31) &&
          field.every((n, at) => at === 0 || count(n, at % 2 === 1 ? 0 : 1, at % 2 === 1 ? terms.length : 2 ** 31)),
      ),
  );
}
