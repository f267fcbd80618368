import { startOf, type AnyNode, type MemberExpression, type Program, type TemplateLiteral } from './ast.js';
import type { FindingSink } from '../report/findings.js';
import type { Code } from '../report/codes.js';
import { forEachChild } from './walk.js';

// The syntax-tree scan of decision R2: what is code is caught however it is spelled, what is text
// (strings, comments, template text, regex literals, member and key names) is never reported.

interface Rule {
  code: Code;
  hint: string;
}

const LOAD_HINT =
  'schemas cannot load code; declare packages in main.requiredLibraries and take them from the `libraries` argument of the handlers factory';
const ESM_HINT = 'schemas are ES modules; use `export const main` and `export const handlers`';
const RUN_CODE_HINT = 'building code from strings is not allowed; write the logic directly in the handler';
const AUTHORITY_HINT = 'handlers receive their inputs as arguments; the core injects keys and does all HTTP';
const GLOBAL_HINT = 'the global object holds host authority; use only what the handler receives as arguments';
const NO_FILES_HINT = 'schemas have no file system; put static data in main or in a shared list';
const TIMER_HINT = 'handlers run under a deadline and cannot schedule work; compute the result directly';
const NETWORK_HINT = 'the core does all HTTP: describe the request in main.routes and adjust it in preRequest';
/** R12: `fetch` is the core's bridge inside executeRequest; elsewhere it fails at run time (SEC100). */
const FETCH_HINT =
  "an executeRequest handler's fetch goes through the core, within the schema's reach; in preRequest or postRequest it fails (SEC100)";

const IMPORT: Rule = { code: 'SEC001', hint: LOAD_HINT };
const FS: Rule = { code: 'SEC005', hint: NO_FILES_HINT };
const CHILD_PROCESS: Rule = {
  code: 'SEC007',
  hint: 'schemas cannot start processes; describe the request in main.routes and let the core send it',
};
const NEW_FUNCTION: Rule = { code: 'SEC010', hint: RUN_CODE_HINT };
const CONSTRUCTOR: Rule = { code: 'SEC004', hint: RUN_CODE_HINT };
const TOP_LEVEL_AWAIT: Rule = {
  code: 'SEC015',
  hint: 'await only inside handlers; the top level of a schema is data and the handlers factory',
};

/** Global names whose mere reference reaches host authority. A Map: no prototype names like `toString`. */
const NAMES = new Map<string, Rule>([
  ['require', { code: 'SEC002', hint: LOAD_HINT }],
  ['module', { code: 'SEC002', hint: ESM_HINT }],
  ['exports', { code: 'SEC002', hint: ESM_HINT }],
  ['eval', { code: 'SEC003', hint: RUN_CODE_HINT }],
  ['Function', { code: 'SEC004', hint: RUN_CODE_HINT }],
  ['process', { code: 'SEC006', hint: AUTHORITY_HINT }],
  ['globalThis', { code: 'SEC008', hint: GLOBAL_HINT }],
  ['global', { code: 'SEC008', hint: GLOBAL_HINT }],
  ['__dirname', { code: 'SEC009', hint: NO_FILES_HINT }],
  ['__filename', { code: 'SEC009', hint: NO_FILES_HINT }],
  ['setTimeout', { code: 'SEC011', hint: TIMER_HINT }],
  ['setInterval', { code: 'SEC011', hint: TIMER_HINT }],
  ['setImmediate', { code: 'SEC011', hint: TIMER_HINT }],
  ['fetch', { code: 'SEC021', hint: FETCH_HINT }],
  ['XMLHttpRequest', { code: 'SEC014', hint: NETWORK_HINT }],
  ['WebSocket', { code: 'SEC014', hint: NETWORK_HINT }],
]);

const MODULES = new Map<string, Rule>([
  ['fs', FS],
  ['node:fs', FS],
  ['fs/promises', FS],
  ['node:fs/promises', FS],
  ['child_process', CHILD_PROCESS],
  ['node:child_process', CHILD_PROCESS],
]);

/** Files that are not schemas (shared lists) report every hit under one code of their own, the schema rule named in the message. */
export interface Recode {
  code: Code;
  hint: string;
}

interface Scan {
  sink: FindingSink;
  pureData: AnyNode | null;
  recode: Recode | undefined;
}

/**
 * Reports every forbidden use of host authority in the syntax tree of a schema file.
 * `pureData` is a subtree already known to be literal data (no identifiers, calls or
 * functions), which cannot hold anything this scan looks for.
 */
export function scanForbidden(
  program: Program,
  sink: FindingSink,
  pureData: AnyNode | null = null,
  recode?: Recode,
): void {
  visit(program, program, '', false, { sink, pureData, recode });
}

/** Pre-order walk over every child node; `key` is the field of `parent` that holds `node`. */
function visit(node: AnyNode, parent: AnyNode, key: string, inFunction: boolean, scan: Scan): void {
  if (node === scan.pureData) return;
  inspect(node, parent, key, inFunction, scan);
  const inner = inFunction || isFunction(node);
  forEachChild(node, visit, inner, scan);
}

function isFunction(node: AnyNode): boolean {
  return (
    node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression' || node.type === 'FunctionDeclaration'
  );
}

function inspect(node: AnyNode, parent: AnyNode, key: string, inFunction: boolean, scan: Scan): void {
  switch (node.type) {
    case 'Identifier':
      if (isReference(parent, key)) checkIdentifier(node.name, node, parent, key, scan);
      return;
    case 'MemberExpression':
      if (node.computed) checkComputedName(node.property, scan);
      else if (isConstructorChain(node))
        report(scan, CONSTRUCTOR, node.property, 'forbidden: constructor.constructor reaches Function');
      return;
    case 'Property':
      // `const { ['constructor']: F } = x` reads a property exactly like `x['constructor']`.
      if (parent.type !== 'ObjectPattern') return;
      if (node.computed) checkComputedName(node.key, scan);
      else if (node.key.type === 'Identifier' && node.key.name === 'constructor')
        report(scan, CONSTRUCTOR, node.key, 'forbidden: destructured constructor');
      return;
    case 'ImportDeclaration':
      report(scan, IMPORT, node, `forbidden: import from '${String(node.source.value)}'`);
      checkModule(node.source, scan);
      return;
    case 'ImportExpression':
      report(scan, IMPORT, node, 'forbidden: dynamic import()');
      checkModule(node.source, scan);
      return;
    case 'MetaProperty':
      if (node.meta.name === 'import') report(scan, IMPORT, node, 'forbidden: import.meta');
      return;
    case 'ExportAllDeclaration':
      report(scan, IMPORT, node, `forbidden: export * from '${String(node.source.value)}'`);
      checkModule(node.source, scan);
      return;
    case 'ExportNamedDeclaration':
      if (!node.source) return;
      report(scan, IMPORT, node, `forbidden: export { ... } from '${String(node.source.value)}'`);
      checkModule(node.source, scan);
      return;
    case 'CallExpression':
      // `require` itself is reported as an identifier; the module it names adds its own code.
      if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]) {
        checkModule(node.arguments[0], scan);
      }
      return;
    case 'AwaitExpression':
      if (!inFunction) report(scan, TOP_LEVEL_AWAIT, node, 'forbidden: top-level await');
      return;
    case 'ForOfStatement':
      if (node.await && !inFunction) report(scan, TOP_LEVEL_AWAIT, node, 'forbidden: top-level for await');
      return;
    case 'VariableDeclaration':
      if (node.kind === 'await using' && !inFunction)
        report(scan, TOP_LEVEL_AWAIT, node, 'forbidden: top-level await using');
      return;
    default:
      return;
  }
}

/** False where an identifier is a name, not a reference: member and key names, labels, export names. */
function isReference(parent: AnyNode, key: string): boolean {
  switch (parent.type) {
    case 'MemberExpression':
      return key !== 'property' || parent.computed;
    case 'Property':
    case 'MethodDefinition':
    case 'PropertyDefinition':
      return key !== 'key' || parent.computed;
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
      return key !== 'label';
    // The imported or exported name belongs to the other module; `local` is the reference here.
    case 'ImportSpecifier':
      return key !== 'imported';
    case 'ExportSpecifier':
    case 'ExportAllDeclaration':
      return key !== 'exported';
    case 'MetaProperty':
      return false;
    default:
      return true;
  }
}

function checkIdentifier(name: string, node: AnyNode, parent: AnyNode, key: string, scan: Scan): void {
  const rule = NAMES.get(name);
  if (!rule) return;
  if (name === 'Function' && parent.type === 'NewExpression' && key === 'callee') {
    report(scan, NEW_FUNCTION, parent, 'forbidden: new Function');
    return;
  }
  report(
    scan,
    rule,
    node,
    rule.code === 'SEC021'
      ? 'handler code calls fetch: the route makes its own requests, through the core'
      : `forbidden: ${name}`,
  );
}

/**
 * `x.constructor.constructor` is `Function` for any ordinary `x`. A single `.constructor`
 * (`value.constructor === Object`) is a common, harmless check and is left alone.
 */
function isConstructorChain(node: MemberExpression): boolean {
  return (
    isNamedMember(node, 'constructor') &&
    node.object.type === 'MemberExpression' &&
    isNamedMember(node.object, 'constructor')
  );
}

function isNamedMember(node: MemberExpression, name: string): boolean {
  return !node.computed && node.property.type === 'Identifier' && node.property.name === name;
}

/** `obj['pro' + 'cess']` is `obj.process`; `x['constructor']` is the way to `Function`. */
function checkComputedName(expression: AnyNode, scan: Scan): void {
  const name = foldString(expression);
  if (name === undefined) return;
  const rule = name === 'constructor' ? CONSTRUCTOR : NAMES.get(name);
  if (rule) report(scan, rule, expression, `forbidden: computed access to ${name}`);
}

function checkModule(specifier: AnyNode, scan: Scan): void {
  const name = foldString(specifier);
  const rule = name === undefined ? undefined : MODULES.get(name);
  if (rule) report(scan, rule, specifier, `forbidden: module '${name}'`);
}

function foldString(node: AnyNode): string | undefined {
  const value = fold(node);
  return value === undefined ? undefined : String(value);
}

/**
 * Evaluates an expression made only of string and number literals, templates and `+`, with
 * JavaScript's own rules (`1 + 2` is 3, `'1' + 2` is '12'). Anything else is not foldable.
 */
function fold(node: AnyNode): string | number | undefined {
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' || typeof node.value === 'number' ? node.value : undefined;
    case 'TemplateLiteral':
      return foldTemplate(node);
    case 'BinaryExpression': {
      if (node.operator !== '+') return undefined;
      const left = fold(node.left);
      const right = left === undefined ? undefined : fold(node.right);
      if (left === undefined || right === undefined) return undefined;
      return typeof left === 'number' && typeof right === 'number' ? left + right : `${left}${right}`;
    }
    default:
      return undefined;
  }
}

/** `` `process` `` and `` `${'pro'}cess` `` fold; a template with any other expression does not. */
function foldTemplate({ quasis, expressions }: TemplateLiteral): string | undefined {
  let text = quasis[0]?.value.cooked;
  for (let i = 0; i < expressions.length && text != null; i++) {
    const part = fold(expressions[i]!);
    const next = quasis[i + 1]?.value.cooked;
    text = part === undefined || next == null ? undefined : `${text}${part}${next}`;
  }
  return text ?? undefined;
}

function report(scan: Scan, rule: Rule, node: AnyNode, message: string): void {
  const { sink, recode } = scan;
  if (recode) sink.addAt(recode.code, startOf(node), `${message} (schema rule ${rule.code})`, recode.hint);
  else sink.addAt(rule.code, startOf(node), message, rule.hint);
}
