// The WebAssembly word scanner (word-table.ts, word-scan.wat): the same words as splitWords, as
// ids that are the same for the same word wherever it comes (ASCII pieces, words of pieces with
// other characters, words first met in a piece scanned later), new words told once each with
// their text; a table grown past its first room (a new memory and instance) keeps every id; and
// the bytes shipped are word-scan.wat as wabt assembles it.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import wabt from 'wabt';
import { WordTable } from '../../src/discovery/word-table.js';
import { WORD_SCAN_WASM } from '../../src/discovery/word-scan.js';
import { splitWords } from '../../src/discovery/words.js';

const TEXTS = [
  'getERC20Transfers moralis_wallet-api',
  'ABCd aBCd HTTPServer v2Beta 2Cd 12AB xYz',
  'The gas price on a chain, in gwei. ',
  '  leading and trailing  ',
  '',
  '---',
  'Straße in München: Wetterwarnungen für éA Bc',
  'naïveCamelCase ÄpfelUndBirnen ok',
  'emoji 🚀 rocketLaunch',
  'a',
  'getGasPrice getGasPrice GETGasPRICE',
];

/** The table's words of `text` as strings, through the ids it gives and the words it announced. */
function wordsThrough(table: WordTable, named: string[], text: string): string[] {
  const count = table.wordsOf(text);
  return [...table.ids.subarray(0, count)].map((id) => named[id] as string);
}

describe('the word table', () => {
  it('splits as splitWords does and gives a word one id wherever it comes', () => {
    const named: string[] = [];
    const table = new WordTable((word, id) => {
      expect(named[id]).toBeUndefined();
      named[id] = word;
    }, 4);
    for (const round of [1, 2])
      for (const text of TEXTS)
        expect(wordsThrough(table, named, text), `${text} (round ${round})`).toEqual(splitWords(text));
    // Each distinct word once: ids are 0, 1, 2, ... and no word has two.
    expect(new Set(named).size).toBe(named.length);
    expect(table.size).toBe(named.length);
  });

  it('keeps every id when it grows past its first room (longer texts, more words than expected)', () => {
    const named: string[] = [];
    const table = new WordTable((word, id) => (named[id] = word), 1);
    const many = Array.from({ length: 3000 }, (_none, at) => `word${at}Part${at % 7}`).join(' ');
    const long = 'x'.repeat(70_000) + ' tail';
    expect(wordsThrough(table, named, many)).toEqual(splitWords(many));
    expect(wordsThrough(table, named, long)).toEqual(splitWords(long));
    expect(wordsThrough(table, named, 'word17Part3 tail')).toEqual(['word17', 'Part3', 'tail']);
    expect(new Set(named).size).toBe(named.length);
  });

  it('ships word-scan.wat as wabt assembles it', async () => {
    const text = readFileSync(new URL('../../src/discovery/word-scan.wat', import.meta.url), 'utf8');
    const module = (await wabt()).parseWat('word-scan.wat', text);
    module.validate();
    const bytes = Buffer.from(module.toBinary({}).buffer).toString('base64');
    expect(bytes, 'put these bytes into src/discovery/word-scan.ts').toBe(WORD_SCAN_WASM);
  });
});
