// A request that names the blockchain it is about ("swap 1000 USDC into DAI on polygon", "block
// height on base") is not answered by a tool made for another chain: a Solana swap quote does not
// quote a swap on Polygon, though both say "swap" and "quote". Read from the tools' own text alone,
// so it holds for any catalog: a tool that names one or more chains in what it says it does (its
// name, hints, host or description) serves those; one that names none, says EVM (every EVM chain),
// or takes a chain or network of its caller without a list of values serves any. Only a tool that
// names chains and none of the request's (nor lists it among a parameter's values) gives way.

import type { Tool } from '../catalog/tools.js';
import type { Share } from './rescore.js';
import { fold, splitWords } from './words.js';

/** Each chain's names in text, folded, as one word each (`bnb chain`, `smart chain` are not read). */
const CHAIN_NAMES: Record<string, readonly string[]> = {
  ethereum: ['ethereum'],
  polygon: ['polygon', 'matic'],
  arbitrum: ['arbitrum'],
  optimism: ['optimism'],
  base: ['base'],
  bsc: ['bsc', 'bnb'],
  avalanche: ['avalanche', 'avax'],
  solana: ['solana', 'svm'],
  bitcoin: ['bitcoin'],
  cosmos: ['cosmos'],
  tron: ['tron'],
  starknet: ['starknet'],
  zksync: ['zksync'],
  gnosis: ['gnosis'],
  fantom: ['fantom'],
  cardano: ['cardano'],
  polkadot: ['polkadot'],
  mina: ['mina'],
  tezos: ['tezos'],
  algorand: ['algorand'],
  aptos: ['aptos'],
  sui: ['sui'],
  hedera: ['hedera'],
  stellar: ['stellar'],
  xrp: ['xrp', 'ripple'],
  litecoin: ['litecoin'],
  dogecoin: ['dogecoin'],
  lukso: ['lukso'],
  celo: ['celo'],
  linea: ['linea'],
  osmosis: ['osmosis'],
};
/** The chains running the Ethereum virtual machine: a tool that says `EVM` serves each. */
const EVM = new Set([
  'ethereum',
  'polygon',
  'arbitrum',
  'optimism',
  'base',
  'bsc',
  'avalanche',
  'gnosis',
  'fantom',
  'zksync',
]);

const CHAIN_OF = new Map(Object.entries(CHAIN_NAMES).flatMap(([chain, names]) => names.map((name) => [name, chain])));

/**
 * Words that also mean something else (`base` currency, the `bnb` token):
 * in a request, a chain only after a word that puts something on a chain (`on base`, `from
 * arbitrum to base`); in a tool's text, only beside another chain's name or such a word.
 */
const AMBIGUOUS = new Set(['base', 'bnb']);
const BEFORE_A_CHAIN = new Set(['on', 'from', 'to', 'onto', 'via', 'across', 'in']);

/**
 * A chain's own coin, as a request writes it (upper case: `10 SOL`), names the chain: in a request
 * only (a tool's `1 ETH` is an example). Each chain above with a coin of its own symbol (`MATIC`,
 * `AVAX`, `MINA`, `SUI`, `XRP`, `CELO` are its names already; `BNB`, `OP`, `ARB` read other ways).
 */
const NATIVE_COIN = new Map([
  ['ETH', 'ethereum'],
  ['POL', 'polygon'],
  ['SOL', 'solana'],
  ['BTC', 'bitcoin'],
  ['ATOM', 'cosmos'],
  ['TRX', 'tron'],
  ['STRK', 'starknet'],
  ['FTM', 'fantom'],
  ['ADA', 'cardano'],
  ['DOT', 'polkadot'],
  ['XTZ', 'tezos'],
  ['ALGO', 'algorand'],
  ['APT', 'aptos'],
  ['HBAR', 'hedera'],
  ['XLM', 'stellar'],
  ['LTC', 'litecoin'],
  ['DOGE', 'dogecoin'],
  ['LYX', 'lukso'],
  ['OSMO', 'osmosis'],
]);

/** A parameter that takes the chain from the caller: a tool with one and no list of values serves any chain. */
const CHAIN_PARAMETER = /^(chain|network|blockchain|platform)(s|id|name)?$/i;

/** A tool made for other chains than the request's scores this share of its score. */
const OTHER_CHAIN = 0.25;

/** The chains a text names (see AMBIGUOUS). */
export function chainsNamed(text: string): Set<string> {
  return chainsOfWords(splitWords(text));
}

function chainsOfWords(raw: readonly string[]): Set<string> {
  const words = raw.map(fold);
  const found = new Set<string>();
  const ambiguous: string[] = [];
  words.forEach((word, at) => {
    const chain = CHAIN_OF.get(word);
    if (chain === undefined) return;
    if (!AMBIGUOUS.has(word) || BEFORE_A_CHAIN.has(words[at - 1] ?? '')) found.add(chain);
    else ambiguous.push(chain);
  });
  if (found.size > 0) for (const chain of ambiguous) found.add(chain);
  return found;
}

interface ToolChains {
  /** The chains the tool names in what it says it does (empty: any). */
  named: ReadonlySet<string>;
  /** Named, or listed among a parameter's values; undefined: a parameter takes any chain. */
  served: ReadonlySet<string> | undefined;
}

const toolChains = new WeakMap<Tool, ToolChains>();

function chainsOf(tool: Tool): ToolChains {
  let found = toolChains.get(tool);
  if (found !== undefined) return found;
  const { schema, route } = tool;
  const meta = route.meta;
  const named = chainsNamed(
    [
      tool.name,
      route.name,
      schema.name,
      meta?.searchHint ?? '',
      ...(meta?.aliases ?? []),
      ...schema.tags,
      schema.root,
      route.description,
    ].join(' \n '),
  );
  // `EVM`: every EVM chain; said beside a Solana or Bitcoin tool's name it still adds them.
  if (/\bevm\b|EVM/.test(`${tool.name} ${route.description}`)) for (const chain of EVM) named.add(chain);
  let served: Set<string> | undefined = new Set(named);
  for (const param of route.parameters) {
    if (param.source.kind !== 'user') continue;
    if (param.type.kind === 'enum') {
      for (const value of param.type.values) for (const chain of chainsNamed(`on ${value}`)) served.add(chain);
    } else if (CHAIN_PARAMETER.test(param.key)) {
      served = undefined;
      break;
    }
  }
  found = { named, served };
  toolChains.set(tool, found);
  return found;
}

/**
 * The share (rescore.ts) that scores each tool made for other chains than every one the request
 * names OTHER_CHAIN of its score; none for a request that names no chain.
 */
export function requestChainShare(query: string, toolAt: (document: number) => Tool): Share | undefined {
  const words = splitWords(query);
  const asked = chainsOfWords(words);
  for (const word of words) {
    const chain = NATIVE_COIN.get(word);
    if (chain !== undefined) asked.add(chain);
  }
  if (asked.size === 0) return undefined;
  return (document) => {
    const { named, served } = chainsOf(toolAt(document));
    if (named.size === 0 || served === undefined) return 1;
    for (const chain of asked) if (served.has(chain)) return 1;
    return OTHER_CHAIN;
  };
}
