// The options of a z block (`optional()`, `default(x)`, `min(n)`, `max(n)`, `length(n)`, `regex(p)`,
// `values(a,b)`), applied in order to the type its primitive gave (decision R6): each option checks
// its argument against that type and narrows it. params.ts compiles the rest of a parameter.

import { closestName } from '../report/did-you-mean.js';
import type { FindingSink } from '../report/findings.js';
import { compilesAsPattern, LITERAL_FORM, numericText, readTyped, unquote, UNREADABLE } from './z-values.js';
import type { ParamType } from './types.js';
import { bothPatterns } from '../shared/pattern.js';

export type Kind = ParamType['kind'];

/** The z block while its options are applied in order. */
export interface ZState {
  type: ParamType;
  optional: boolean;
  /** Set once `values()` was seen, so an enum it failed to fill is not also VAL046. */
  valuesGiven: boolean;
  defaultValue?: { value: unknown; path: string };
}

type OptionRule = (arg: string, state: ZState, path: string, sink: FindingSink) => void;

/** `a(…), b(…)` written as one option: split before each known option name that follows `), `. */
const JOINED_OPTIONS = /\)\s*,\s*(?=(?:optional|default|min|max|length|regex|values)\()/;

/** `{{list:field}}` written in a z string: only enum() may interpolate a list. */
export const INTERPOLATION = /\{\{[^{}]*:[^{}]*\}\}/;

export const LIST_HINT = 'write the list inside enum(), e.g. enum({{evmChains:alias}}): its values become the choices';

/**
 * `did you mean 'optional()'?` before `rest` when the name of `text` (before its parenthesis)
 * is a known name misspelt or written without parentheses; the argument is kept as written.
 */
export function withCorrection(text: string, known: Iterable<string>, rest: string): string {
  const open = text.indexOf('(');
  const name = (open < 0 ? text : text.slice(0, open)).trim();
  const names = [...known];
  const match = names.includes(name) ? name : closestName(name, names);
  if (match === undefined) return rest;
  const argument = open < 0 ? '()' : text.slice(open);
  const corrected = argument.endsWith(')') ? match + argument : `${match + argument})`;
  return corrected === text ? rest : `did you mean '${corrected}'? ${rest}`;
}

// --- options -----------------------------------------------------------------------------------

export function applyOption(text: string, path: string, state: ZState, sink: FindingSink): void {
  const open = text.indexOf('(');
  const rule = open > 0 && text.endsWith(')') ? OPTION_RULES.get(text.slice(0, open)) : undefined;
  if (!rule) {
    sink.add(
      'VAL045',
      path,
      `unknown option ${JSON.stringify(text)}`,
      withCorrection(
        text,
        OPTION_RULES.keys(),
        'options are min(n), max(n), length(n), optional(), default(x), regex(p) and values(a,b)',
      ),
    );
    return;
  }
  if (INTERPOLATION.test(text)) {
    sink.add(
      'VAL047',
      path,
      `list interpolation in ${JSON.stringify(text)}; it is only allowed inside enum()`,
      LIST_HINT,
    );
    return;
  }
  rule(text.slice(open + 1, -1), state, path, sink);
}

const OPTION_RULES: ReadonlyMap<string, OptionRule> = new Map<string, OptionRule>([
  ['optional', applyOptional],
  ['default', applyDefault],
  ['min', (arg, state, path, sink) => applyBound('min', arg, state, path, sink)],
  ['max', (arg, state, path, sink) => applyBound('max', arg, state, path, sink)],
  ['length', (arg, state, path, sink) => applyBound('length', arg, state, path, sink)],
  ['regex', applyRegex],
  ['values', applyValues],
]);

/** Corpus idiom: `optional(x)` is read as `optional()`. */
function applyOptional(arg: string, state: ZState, path: string, sink: FindingSink): void {
  if (arg !== '')
    sink.add('VAL059', path, `optional(${arg}) read as optional(); the argument is ignored`, 'write optional()');
  state.optional = true;
}

/** Corpus idiom: several options written in one string (`'optional(), default(1000)'`), read one by one. */
export function splitJoinedOptions(text: string, path: string, sink: FindingSink): string[] {
  const parts = text.split(JOINED_OPTIONS);
  if (parts.length === 1) return parts;
  const options = parts.map((part, index) => (index < parts.length - 1 ? `${part})` : part).trim());
  sink.add(
    'VAL059',
    path,
    `${JSON.stringify(text)} read as the options ${options.join(' and ')}`,
    'write each option as its own string',
  );
  return options;
}

/** R6: the argument is typed by the primitive; constraints are checked once all options are in (VAL056). */
function applyDefault(arg: string, state: ZState, path: string, sink: FindingSink): void {
  const { kind } = state.type;
  const value = kind === 'string' || kind === 'enum' ? unquote(arg) : readTyped(kind, arg);
  if (value === UNREADABLE) {
    sink.add(
      'VAL054',
      path,
      `default(${arg}) is not ${LITERAL_FORM[kind]}`,
      `${kind}() defaults are ${LITERAL_FORM[kind]}`,
    );
    return;
  }
  state.defaultValue = { value, path };
}

type Bound = 'min' | 'max' | 'length';
type BoundKey = 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems';
interface BoundRule {
  lower?: BoundKey;
  upper?: BoundKey;
}

/** Which JSON Schema keywords each bound sets, per primitive; a missing entry has no effect (VAL057). */
const BOUND_RULES: Partial<Record<Kind, Partial<Record<Bound, BoundRule>>>> = {
  string: {
    min: { lower: 'minLength' },
    max: { upper: 'maxLength' },
    length: { lower: 'minLength', upper: 'maxLength' },
  },
  number: { min: { lower: 'minimum' }, max: { upper: 'maximum' } },
  array: { length: { lower: 'minItems', upper: 'maxItems' } },
};

function applyBound(bound: Bound, arg: string, state: ZState, path: string, sink: FindingSink): void {
  const n = numericText(arg);
  if (n === null) {
    sink.add('VAL054', path, `${bound}(${arg}) needs a number`, `write digits, e.g. ${bound}(1)`);
    return;
  }
  const { type } = state;
  const rule = BOUND_RULES[type.kind]?.[bound];
  if (!rule) {
    sink.add('VAL057', path, `${bound}() has no effect on ${type.kind}()`, 'remove the option');
    return;
  }
  // Lengths and item counts are whole numbers; only number() bounds may be fractional or negative.
  if (type.kind !== 'number' && !(Number.isInteger(n) && n >= 0)) {
    sink.add(
      'VAL054',
      path,
      `${bound}(${arg}) needs a whole number of 0 or more`,
      `a length or a count of items, e.g. ${bound}(3)`,
    );
    return;
  }
  // Options combine with AND: a repeated bound can only tighten.
  const bounds = type as { [key in BoundKey]?: number };
  if (rule.lower) bounds[rule.lower] = Math.max(bounds[rule.lower] ?? -Infinity, n);
  if (rule.upper) bounds[rule.upper] = Math.min(bounds[rule.upper] ?? Infinity, n);
}

/** A string pattern (decision R6), in the `u` mode Ajv compiles it with; the guide's own form, so no finding (VAL092 is retired). */
function applyRegex(arg: string, state: ZState, path: string, sink: FindingSink): void {
  if (arg === '' || !compilesAsPattern(arg)) {
    sink.add(
      'VAL054',
      path,
      `regex(${arg}) is not a valid regular expression`,
      'write the pattern without slashes, as JavaScript reads it with the u flag and without lookaround or backreferences, e.g. regex(^0x[a-fA-F0-9]{40}$)',
    );
    return;
  }
  const { type } = state;
  if (type.kind !== 'string') {
    sink.add('VAL057', path, `regex() has no effect on ${type.kind}()`, 'remove the option');
    return;
  }
  // AND with an earlier pattern: both must match somewhere, as each would alone.
  type.pattern = type.pattern === undefined ? arg : bothPatterns(type.pattern, arg);
}

/** Corpus idiom (R6): `values(a,b)` supplies the values of an empty `enum()`. */
function applyValues(arg: string, state: ZState, path: string, sink: FindingSink): void {
  const { type } = state;
  if (type.kind !== 'enum' || type.values.length > 0 || type.lists.length > 0) {
    sink.add('VAL054', path, 'values() only fills an empty enum()', 'write the values inside enum(...)');
    return;
  }
  state.valuesGiven = true;
  const values = arg.split(',');
  if (values.includes('')) {
    sink.add(
      'VAL054',
      path,
      `values(${arg}) has an empty value`,
      'separate the values by single commas, with no comma at either end',
    );
    return;
  }
  type.values.push(...values);
  sink.add('VAL093', path, 'values() read as the values of enum()');
}
