// Where a parameter's value comes from: the caller's input or a fixed value (with key slots).
// Besides the spec's `{{USER_PARAM}}`, the caller's input is recognised where the corpus
// writes it inside text or under its own name in capitals (decision R6, SPEC-NOTES-v3-v4 §6).

import { compileValueTemplate, type TemplateContext } from './templates.js';
import type { ParamSource } from './types.js';

const USER_VALUE = '{{USER_PARAM}}';
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/**
 * The caller's input where the value is `{{USER_PARAM}}`, holds it inside text
 * (`%{{USER_PARAM}}%`, VAL095), or is a `{{NAME}}` naming the parameter's own key in another
 * case convention and no server key (`{{LATITUDE}}` for `latitude`, `{{STOP_ID}}` for
 * `stopId`, VAL099: the reference sends an empty value there, which no author means); otherwise
 * a fixed value or key template.
 */
export function compileSource(raw: { key: string; value: string }, path: string, ctx: TemplateContext): ParamSource {
  const { value, key } = raw;
  if (value === USER_VALUE) return { kind: 'user' };
  const slots = [...value.matchAll(PLACEHOLDER)].filter(
    ([, name]) => name === 'USER_PARAM' || isOwnKey(name ?? '', key, ctx),
  );
  if (slots.length === 0) return { kind: 'template', template: compileValueTemplate(value, path, ctx) };
  const around: string[] = [];
  let last = 0;
  for (const slot of slots) {
    around.push(value.slice(last, slot.index));
    last = slot.index + slot[0].length;
  }
  around.push(value.slice(last));
  if (around.some((text) => text.includes('{{'))) {
    ctx.sink.add(
      'VAL042',
      path,
      `${JSON.stringify(value)} mixes the caller's input with other placeholders`,
      "let a preRequest handler combine them, or keep '{{USER_PARAM}}' alone",
    );
    return { kind: 'template', template: [] };
  }
  for (const name of new Set(slots.map(([, name]) => name))) {
    if (name !== 'USER_PARAM')
      ctx.sink.add(
        'VAL099',
        path,
        `{{${name}}} read as the caller's input for \`${key}\``,
        "write '{{USER_PARAM}}': without this reading the reference sends an empty value",
      );
  }
  if (around.length === 2 && around[0] === '' && around[1] === '') return { kind: 'user' };
  ctx.sink.add('VAL095', path, `the argument is sent as ${JSON.stringify(around.join('<argument>'))}`);
  return { kind: 'user', around };
}

/** `{{LATITUDE}}` for `latitude`, `{{STOP_ID}}` for `stopId`: the key in another case convention, and no declared key. */
function isOwnKey(name: string, key: string, ctx: TemplateContext): boolean {
  return !ctx.serverKeys.has(name) && comparable(name) === comparable(key);
}

function comparable(name: string): string {
  return name.replace(/[_-]/g, '').toLowerCase();
}
