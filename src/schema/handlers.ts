// What can be known about the handlers factory without running it: that it is a function,
// which routes and hooks its returned object literal names, and whether it tries to take
// over the request (executeRequest, R5). The sandbox checks the rest at load time.

import { endOf, startOf, type Expression, type ObjectExpression, type Property } from '../scan/ast.js';
import type { FindingSink } from '../findings.js';
import type { HandlerHooks, HandlersInfo } from './types.js';

const HOOKS = new Set<string>(['preRequest', 'postRequest']);

export function checkHandlers(node: Expression, text: string, routeNames: ReadonlySet<string>, sink: FindingSink): HandlersInfo {
  const factorySource = text.slice(startOf(node), endOf(node));
  if (node.type !== 'ArrowFunctionExpression' && node.type !== 'FunctionExpression') {
    sink.addAt('VAL004', startOf(node), '`handlers` must be a factory function', 'write export const handlers = ({ sharedLists, libraries }) => ({ ... })', 'handlers');
    return { factorySource, routes: null };
  }
  const returned = returnedObject(node);
  if (!returned) return { factorySource, routes: null };

  const routes: Record<string, HandlerHooks> = {};
  for (const property of returned.properties) {
    const name = staticKey(property);
    if (name === null) return { factorySource, routes: null };
    const where = startOf(property);
    if (!routeNames.has(name)) {
      sink.addAt('VAL005', where, `handlers name '${name}', which is no route of this schema`, `routes: ${[...routeNames].join(', ')}`, `handlers.${name}`);
    }
    routes[name] = readHooks(property as Property, name, sink);
  }
  return { factorySource, routes };
}

/** The object literal the factory returns: `=> ({...})` or a final `return {...}`. */
function returnedObject(node: Expression): ObjectExpression | null {
  if (node.type !== 'ArrowFunctionExpression' && node.type !== 'FunctionExpression') return null;
  const body = node.body;
  if (body?.type === 'ObjectExpression') return body;
  if (body?.type !== 'BlockStatement') return null;
  const last = body.body.at(-1);
  return last?.type === 'ReturnStatement' && last.argument?.type === 'ObjectExpression' ? last.argument : null;
}

function staticKey(property: ObjectExpression['properties'][number]): string | null {
  if (property.type !== 'Property' || property.computed) return null;
  if (property.key.type === 'Identifier') return property.key.name;
  return property.key.type === 'Literal' && typeof property.key.value === 'string' ? property.key.value : null;
}

function readHooks(property: Property, route: string, sink: FindingSink): HandlerHooks {
  const hooks: HandlerHooks = { preRequest: false, postRequest: false };
  if (property.value.type !== 'ObjectExpression') return hooks;
  for (const hook of property.value.properties) {
    const name = staticKey(hook);
    if (name === null) continue;
    const path = `handlers.${route}.${name}`;
    if (name === 'executeRequest') {
      sink.addAt('SEC018', startOf(hook), `route '${route}' has an executeRequest handler; handlers may not perform requests`,
        'let the core send the request: build it in preRequest, reshape the answer in postRequest', path);
    } else if (HOOKS.has(name)) {
      hooks[name as keyof HandlerHooks] = true;
    } else {
      sink.addAt('VAL003', startOf(hook), `unknown handler hook '${name}'`, 'hooks are preRequest and postRequest', path);
    }
  }
  return hooks;
}
