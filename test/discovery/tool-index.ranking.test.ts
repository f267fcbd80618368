// The ranking on the discovery fixture catalog (not a corpus): words split, stemmed and mapped
// through the abbreviation table on both sides, typos, German compounds, the "none" answer, the
// namespace filter; and the meta-tools' own cost in tokens (o200k, gpt-tokenizer).

import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { META_TOOLS } from '../../src/discovery/meta-tools.js';
import { requestTerms, splitWords, stem, terms } from '../../src/discovery/words.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery', 'schemas');

describe('words', () => {
  it('splits camelCase, snake_case and a digit before a capitalised word', () => {
    expect(splitWords('getERC20Transfers moralis_wallet-api')).toEqual([
      'get',
      'ERC20',
      'Transfers',
      'moralis',
      'wallet',
      'api',
    ]);
  });

  it("keeps an acronym's plural one word", () => {
    expect(splitWords('NFTs owned, public APIs, getNFTsByAddress, HTTPServer')).toEqual([
      'NFTs',
      'owned',
      'public',
      'APIs',
      'get',
      'NFTs',
      'By',
      'Address',
      'HTTP',
      'Server',
    ]);
    expect(terms('NFTs')).toEqual(['nft']);
  });

  it('folds the forms of a verb onto one term: trades, trading and traded; verify and verified', () => {
    expect(['trades', 'trading', 'traded', 'trade'].map(stem)).toEqual(['trade', 'trade', 'trade', 'trade']);
    expect(['verify', 'verified'].map(stem)).toEqual(['verify', 'verify']);
  });

  it('stems plurals and -ing/-ed forms onto one term, and leaves words whose s is not a plural', () => {
    expect(['prices', 'pricing', 'priced'].map(stem)).toEqual(['price', 'price', 'price']);
    expect(['news', 'address', 'gas', 'holders', 'categories'].map(stem)).toEqual([
      'news',
      'address',
      'gas',
      'holder',
      'category',
    ]);
  });

  it("maps abbreviations and German words to the tools' words, drops filler, splits known German compounds", () => {
    expect(terms('show me the txs of this addr')).toEqual(['transaction', 'address']);
    expect(terms('Wetterwarnungen für meinen Landkreis')).toEqual(['weather', 'warn', 'district']);
    // A word like `constructor` is a word, not Object.prototype's.
    expect(terms('constructor standings')).toEqual(['constructor', 'stand']);
  });

  it("reads a capitalised word the table does not know as a German compound of the table's words", () => {
    const found = (text: string) => requestTerms(text).map((entry) => `${entry.term}${entry.value ? '*' : ''}`);
    // The known tail, the known head (a joining s between), the table's word with a German ending.
    expect(found('Katastrophenwarnungen')).toEqual(['katastrophenwarnungen*', 'disaster', 'warn']);
    expect(found('Ausbildungsplatz')).toEqual(['ausbildungsplatz*', 'apprenticeship']);
    expect(found('Wechselkurse')).toEqual(['wechselkurse*', 'exchange']);
    // Not a lower-case English compound: memecoins is not meme + coin.
    expect(found('memecoins')).toEqual(['memecoin']);
  });

  it('marks names and numbers in a request as values, not acronyms', () => {
    expect(requestTerms('weather Tokyo 2024 USDC')).toEqual([
      { term: 'weather', value: false },
      { term: 'tokyo', value: true },
      { term: '2024', value: true },
      { term: 'usdc', value: false, acronym: true },
    ]);
  });
});

describe('ToolIndex on the fixture catalog', () => {
  const fixture = useFixtureIndex(SCHEMAS);
  const { top } = fixture;

  it('indexes only the tools it is given: the served ones', () => {
    expect(fixture.index.size).toBe(6);
    expect(top('gold bullion price')).not.toContain('goldvault_getBullionPrice');
  });

  it('finds tools by requests in other words than theirs', () => {
    expect(top('show me the transactions of my wallet address')[0]).toBe('chainpeek_getAddrTxList');
    expect(top('how expensive is gas right now')[0]).toBe('chainpeek_getGasPrice');
    expect(top('what temperature will Berlin have tomorrow')[0]).toBe('skyline_getForecast');
    expect(top('novels written by Jane Austen')[0]).toBe('shelfware_searchAuthors');
    expect(top('Wetterwarnungen für meinen Landkreis')[0]).toBe('skyline_getSevereWarnings');
  });

  it('understands requests in French and Spanish: their function words dropped, common concepts mapped', () => {
    expect(top('prévisions météo pour Lyon')[0]).toBe('skyline_getForecast');
    expect(top('¿cuánto cuesta el gas ahora mismo?')[0]).toBe('chainpeek_getGasPrice');
    expect(top('avisos y alertas para Baviera')[0]).toBe('skyline_getSevereWarnings');
  });

  it('finds a tool by a German compound whose last part it knows', () => {
    expect(top('Sturmwarnungen für Bayern')[0]).toBe('skyline_getSevereWarnings');
  });

  it('maps irregular forms and everyday words to the words the tools use', () => {
    expect(terms('transactions I sent')).toEqual(['transaction', 'send']);
    expect(terms('which town has the postcode')).toEqual(['city', 'postal']);
    expect(terms('top coins by mcap')).toEqual(['top', 'token', 'market', 'cap']);
  });

  it('reads the name split into words, aliases and enum values', () => {
    expect(top('addr tx list')[0]).toBe('chainpeek_getAddrTxList');
    expect(top('weatherAlerts')[0]).toBe('skyline_getSevereWarnings');
    expect(top('sepolia history')[0]).toBe('chainpeek_getAddrTxList');
  });

  it('weighs a name in the request less than the words saying what is wanted', () => {
    // `Shelfware` names an API here (a street, say), yet the request is about the weather: both weather tools come first.
    expect(top('weather at Shelfware').slice(0, 2).sort()).toEqual([
      'skyline_getForecast',
      'skyline_getSevereWarnings',
    ]);
  });

  it('forgives a typo', () => {
    expect(top('wether forcast')[0]).toBe('skyline_getForecast');
    // A word no tool has: matched by another form of a tool's word sharing all but its last letters
    // (regional, region), and a short one by a longer word it begins or a slip; alone, a short one
    // (a likely slip of another word) is not enough to answer.
    expect(top('regional')[0]).toBe('skyline_getSevereWarnings');
    expect(top('gass price')[0]).toBe('chainpeek_getGasPrice');
    expect(top('gass')).toEqual([]);
    // Two neighbouring letters swapped count as one slip.
    expect(top('forecsat')[0]).toBe('skyline_getForecast');
  });

  it("answers none when the request's words are not what any tool does", () => {
    expect(top('order a pizza to my flat')).toEqual([]);
    expect(top('send an email to my boss')).toEqual([]);
    expect(top('the of and')).toEqual([]);
    // An acronym no tool knows (a ticker, a code) is an argument: it does not count against a tool.
    expect(top('gwei for XYZW on QRST')[0]).toBe('chainpeek_getGasPrice');
    // sepolia is only a value of a parameter's enum: weaker evidence that the tool does what is asked than its description.
    expect(top('sepolia faucet')).toEqual([]);
    expect(top('sepolia transactions')[0]).toBe('chainpeek_getAddrTxList');
  });

  it('answers none when the best tool has none of the words in what it does, only in its parameters', () => {
    // network and holesky are a parameter's name and an enum value of getAddrTxList, nothing it says it does.
    expect(top('holesky network')).toEqual([]);
    expect(top('which network')).toEqual([]);
    // One word in what it does is enough, with the others in its parameters.
    expect(top('holesky transactions')[0]).toBe('chainpeek_getAddrTxList');
  });

  it('keeps to a namespace when asked', () => {
    expect(top('price', 'shelfware')).toEqual([]);
    expect(top('price', 'chainpeek')).toEqual(['chainpeek_getGasPrice']);
  });
});

describe('meta-tools', () => {
  it('cost at most 1,500 tokens together (o200k)', () => {
    expect(countTokens(JSON.stringify(META_TOOLS))).toBeLessThanOrEqual(1500);
  });
});

describe('ToolIndex and a word no tool has, matched by another form', () => {
  const { top } = useFixtureIndex(join(import.meta.dirname, '..', 'fixtures', 'discovery-words', 'schemas'));

  it('counts as much as where that form is: a slip answers as the word itself would', () => {
    // `address` is only in the send tool's parameters: too weak alone, and so are its misspellings.
    expect(top('address')).toEqual([]);
    expect(top('adress')).toEqual([]);
    expect(top('addresss')).toEqual([]);
    // A slip in a word the tool says it does still finds it.
    expect(top('send mesage')[0]).toBe('mailbox_sendMessage');
    expect(top('translat text')[0]).toBe('lingo_translateText');
  });
});
