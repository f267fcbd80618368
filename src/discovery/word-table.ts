// The words of the index's text as numbers, without making a string per word: a cold start
// splits 9,800 distinct pieces of text (436,000 characters, 67,000 words, 8,600 of them distinct)
// and only the distinct words need to become strings (to be made into terms, words.ts `term`).
// An ASCII piece (97 % of a catalog's) is copied into the memory of word-scan.wat, a small
// hand-written WebAssembly module that splits it by words.ts `splitWords`' rules and finds each
// word in a hash table of the words met so far (tested equal to `splitWords` on a whole catalog).
// Why WebAssembly: V8 compiles it at once (Liftoff), where the same loop in JavaScript ran slower
// than the regular expression and the Map until TurboFan compiled it, and compiling it cost more
// CPU time than it saved. Any other piece is split by `splitWords`, its ASCII words found in the
// same table and the others in a Map, under ids from the same count.

import { WORD_SCAN_WASM } from './word-scan.js';
import { splitWords } from './words.js';

// Node's WebAssembly, as much as is used here: the TypeScript libraries this project compiles with do not declare it.
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: { 'word-table': { memory: object } }) => { exports: unknown };
  Memory: new (size: { initial: number }) => { readonly buffer: ArrayBuffer };
};

interface Scanner {
  layout(text: number, ids: number, records: number, pool: number, count: number, poolUsed: number): void;
  count(): number;
  poolUsed(): number;
  take(): number;
  rehash(table: number, mask: number): void;
  scan(length: number): number;
}

/** Compiled once per process, when the first index is built. */
let compiled: object | undefined;

/** The text's room at first (the 3.0.0 catalog's longest piece is 4,300 characters); more is made when a longer one comes. */
const FIRST_TEXT = 1 << 16;
/** A word's record in the scanner's memory: hash, where its bytes are in the pool, its length, where it began in its text. */
const RECORD_INTS = 4;
const POOL_PER_WORD = 8;
/** Where the views start: replaced in the constructor (see term-counter.ts `EMPTY`). */
const EMPTY = new Int32Array(0);

export class WordTable {
  private scanner: Scanner;
  /** The ids of the last text's words, from index 0: a view of the scanner's memory, made anew when it grows (read it after each call). */
  ids = EMPTY;
  private records = EMPTY;
  /** The scanner's text, written as UTF-8 (Buffer's `write`: one native call, where TextEncoder's `encodeInto` cost a wrapper in JavaScript and an object per call). */
  private bytes = Buffer.alloc(0);
  private count = 0;
  private textCapacity = 0;
  private wordCapacity = 0;
  private poolCapacity = 0;
  /** At least the bytes the pool holds: asked of the scanner only when this says it may be full. */
  private poolBound = 0;
  /** Where the pool of words' bytes begins in the scanner's memory. */
  private poolAt = 0;
  /** Words not ASCII, not in the scanner's table. */
  private readonly others = new Map<string, number>();

  /**
   * `onNew(word, id)` is told each word the first time it is met, with the id it gets (0, 1, 2,
   * ...); `expectedWords`, how many distinct words to make room for (more only cost a new layout).
   */
  constructor(
    private readonly onNew: (word: string, id: number) => void,
    expectedWords: number,
  ) {
    this.scanner = this.layOut(FIRST_TEXT, Math.max(expectedWords, 64), POOL_PER_WORD * Math.max(expectedWords, 64));
  }

  /** How many distinct words were met. */
  get size(): number {
    return this.count;
  }

  /** Writes the ids of `text`'s words, in order, repeats kept, into `ids` from index 0 and returns how many: the words of `splitWords(text)`. */
  wordsOf(text: string): number {
    const length = text.length;
    // Room for the text as UTF-8 (3 bytes a character at most: written whole, its length in bytes says whether it is ASCII), its words and their bytes.
    if (this.poolBound + length > this.poolCapacity) this.poolBound = this.scanner.poolUsed();
    if (
      3 * length > this.textCapacity ||
      this.count + length > this.wordCapacity ||
      this.poolBound + length > this.poolCapacity
    )
      this.layOut(Math.max(this.textCapacity, 6 * length), 2 * (this.count + length), 2 * (this.poolBound + length));
    this.poolBound += length;
    if (this.bytes.write(text) !== length) return this.wordsByExpression(text);
    const words = this.scanner.scan(length);
    this.announce(text);
    return words;
  }

  /** A text with a character outside ASCII: split by the expression; each ASCII word scanned alone (it is one word), the others looked up here. */
  private wordsByExpression(text: string): number {
    const split = splitWords(text);
    const ids = split.map((word) => {
      if (this.bytes.write(word) === word.length) {
        this.scanner.scan(word.length);
        this.announce(word);
        return this.ids[0] as number;
      }
      let id = this.others.get(word);
      if (id === undefined) {
        id = this.scanner.take();
        this.count += 1;
        this.others.set(word, id);
        this.onNew(word, id);
      }
      return id;
    });
    this.ids.set(ids);
    return ids.length;
  }

  /** Tells `onNew` the words the last scan of `text` added. */
  private announce(text: string): void {
    const count = this.scanner.count();
    for (let id = this.count; id < count; id += 1) {
      const start = this.records[RECORD_INTS * id + 3] as number;
      this.onNew(text.slice(start, start + (this.records[RECORD_INTS * id + 2] as number)), id);
    }
    this.count = count;
  }

  /**
   * A scanner with room for a text this long, this many words and bytes of words, in a memory of
   * its own (the records and the pool of the one before copied, the table made again), made the
   * current one.
   */
  private layOut(textCapacity: number, wordCapacity: number, poolCapacity: number): Scanner {
    let slots = 16;
    while (slots < 2 * wordCapacity) slots *= 2;
    const idsAt = align(textCapacity);
    const tableAt = idsAt + 4 * textCapacity;
    const recordsAt = tableAt + 4 * slots;
    const poolAt = recordsAt + 4 * RECORD_INTS * wordCapacity;
    const memory = new WebAssembly.Memory({ initial: Math.ceil((poolAt + poolCapacity) / 65_536) });
    compiled ??= new WebAssembly.Module(Buffer.from(WORD_SCAN_WASM, 'base64'));
    const scanner = new WebAssembly.Instance(compiled, { 'word-table': { memory } }).exports as unknown as Scanner;
    const poolUsed = this.count === 0 ? 0 : this.scanner.poolUsed();
    if (this.count > 0) {
      const records = RECORD_INTS * this.count;
      new Int32Array(memory.buffer, recordsAt, records).set(this.records.subarray(0, records));
      new Uint8Array(memory.buffer, poolAt, poolUsed).set(new Uint8Array(this.records.buffer, this.poolAt, poolUsed));
    }
    scanner.layout(0, idsAt, recordsAt, poolAt, this.count, poolUsed);
    scanner.rehash(tableAt, slots - 1);
    this.bytes = Buffer.from(memory.buffer, 0, textCapacity);
    this.ids = new Int32Array(memory.buffer, idsAt, textCapacity);
    this.records = new Int32Array(memory.buffer, recordsAt, RECORD_INTS * wordCapacity);
    this.textCapacity = textCapacity;
    this.wordCapacity = wordCapacity;
    this.poolCapacity = poolCapacity;
    this.poolAt = poolAt;
    this.scanner = scanner;
    return scanner;
  }
}

/** Rounded up to a multiple of 4, where an array of 32-bit numbers may begin. */
function align(bytes: number): number {
  return (bytes + 3) & ~3;
}
