// What can be known about the handlers factory without running it: that it is a function,
// which routes and hooks it returns, and whether a route makes its own requests
// (executeRequest, through the core's bridge). The sandbox checks the rest at load time.
//
// The hooks of a route are read from the object the factory returns, following the route's
// value where the corpus builds it: to a local object (`x: shared`) or to a local function
// that returns one (`x: build('x')`, `function build(name) { const handler = {...}; return
// handler }`), so that `validate` sees what the sandbox will see. A value that cannot be
// followed that way is left to the load (its hooks read as unknown).

import {
  endOf,
  startOf,
  type AnyNode,
  type Expression,
  type ObjectExpression,
  type Property,
  type Statement,
} from '../scan/ast.js';
import { withSuggestion } from '../report/did-you-mean.js';
import type { FindingSink } from '../report/findings.js';
import type { HandlerHooks, HandlersInfo } from './types.js';
import { ownText } from '../scan/literal.js';

/** executeRequest is served: its requests go through the core's bridge (decision R12). */
const HOOKS = new Set<string>(['preRequest', 'postRequest', 'executeRequest']);
/** How many local bindings and calls are followed from a route's value; the corpus needs two. */
const MAX_STEPS = 4;

/** The statements a name can be bound in, innermost first. */
type Scope = ReadonlyArray<readonly (Statement | AnyNode)[]>;

export function checkHandlers(
  node: Expression,
  text: string,
  routeNames: ReadonlySet<string>,
  sink: FindingSink,
): HandlersInfo {
  const factorySource = ownText(text.slice(startOf(node), endOf(node)));
  if (node.type !== 'ArrowFunctionExpression' && node.type !== 'FunctionExpression') {
    sink.addAt(
      'VAL004',
      startOf(node),
      '`handlers` must be a factory function',
      'write export const handlers = ({ sharedLists, libraries }) => ({ ... })',
      'handlers',
    );
    return { factorySource, routes: null };
  }
  const scope: Scope = bodyStatements(node);
  const returned = objectOf(returnedExpression(node), scope, 0);
  if (!returned) return { factorySource, routes: null };

  const routes: Record<string, HandlerHooks | null> = {};
  for (const property of returned.object.properties) {
    const name = staticKey(property);
    if (name === null) return { factorySource, routes: null };
    if (!routeNames.has(name)) {
      sink.addAt(
        'VAL005',
        startOf(property),
        `handlers name '${name}', which is no route of this schema`,
        `routes: ${[...routeNames].join(', ')}`,
        `handlers.${name}`,
      );
    }
    const hooks = objectOf((property as Property).value as Expression, returned.scope, 0);
    routes[name] = hooks ? readHooks(hooks.object, name, sink) : null;
  }
  return { factorySource, routes };
}

/** What a function returns: an arrow's expression body, or its body's last statement when that is a `return`. */
function returnedExpression(fn: AnyNode): Expression | null {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression' && fn.type !== 'FunctionDeclaration')
    return null;
  const body = fn.body;
  if (!body) return null;
  if (body.type !== 'BlockStatement') return body as Expression;
  const last = body.body.at(-1);
  return last?.type === 'ReturnStatement' ? (last.argument ?? null) : null;
}

/**
 * The object literal an expression stands for, and the scope it was written in: the literal
 * itself, a `const`/`let`/`var` bound to one, or a call of a local function that returns one.
 */
function objectOf(
  expression: Expression | null,
  scope: Scope,
  steps: number,
): { object: ObjectExpression; scope: Scope } | null {
  if (!expression || steps > MAX_STEPS) return null;
  switch (expression.type) {
    case 'ObjectExpression':
      return { object: expression, scope };
    case 'Identifier': {
      const bound = lookUp(expression.name, scope);
      return bound &&
        bound.type !== 'ArrowFunctionExpression' &&
        bound.type !== 'FunctionExpression' &&
        bound.type !== 'FunctionDeclaration'
        ? objectOf(bound as Expression, scope, steps + 1)
        : null;
    }
    case 'CallExpression': {
      if (expression.callee.type !== 'Identifier') return null;
      const fn = lookUp(expression.callee.name, scope);
      if (!fn) return null;
      const inner: Scope = [...bodyStatements(fn), ...scope];
      return objectOf(returnedExpression(fn), inner, steps + 1);
    }
    default:
      return null;
  }
}

/** A function's block body as a scope of its own (none for an arrow with an expression body). */
function bodyStatements(fn: AnyNode): Scope {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression' && fn.type !== 'FunctionDeclaration')
    return [];
  return fn.body?.type === 'BlockStatement' ? [fn.body.body] : [];
}

/** The node a name is bound to in the nearest scope that declares it: a variable's initialiser or a function declaration. */
function lookUp(name: string, scope: Scope): AnyNode | null {
  for (const statements of scope) {
    for (const statement of statements) {
      if (statement.type === 'FunctionDeclaration' && statement.id?.name === name) return statement;
      if (statement.type !== 'VariableDeclaration') continue;
      for (const declarator of statement.declarations) {
        if (declarator.id.type === 'Identifier' && declarator.id.name === name) return declarator.init ?? null;
      }
    }
  }
  return null;
}

function staticKey(property: ObjectExpression['properties'][number]): string | null {
  if (property.type !== 'Property' || property.computed) return null;
  if (property.key.type === 'Identifier') return property.key.name;
  return property.key.type === 'Literal' && typeof property.key.value === 'string' ? property.key.value : null;
}

function readHooks(object: ObjectExpression, route: string, sink: FindingSink): HandlerHooks {
  const hooks: HandlerHooks = { preRequest: false, postRequest: false, executeRequest: false };
  for (const hook of object.properties) {
    const name = staticKey(hook);
    if (name === null) continue;
    const path = `handlers.${route}.${name}`;
    if (HOOKS.has(name)) {
      hooks[name as keyof HandlerHooks] = true;
    } else {
      sink.addAt(
        'VAL003',
        startOf(hook),
        `unknown handler hook '${name}'`,
        withSuggestion(name, HOOKS, 'hooks are preRequest, executeRequest and postRequest'),
        path,
      );
    }
  }
  return hooks;
}
