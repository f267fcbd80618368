// What the catalog itself teaches (src/discovery/associations.ts), through ToolIndex, on small
// catalogs written here: the best results' common terms decide between two tools that match a
// request alike, and a word the best tool lacks counts for it in the "none" rule when the tool has
// what the word stands beside in the catalog's other tools.

import { afterAll, describe, expect, it } from 'vitest';
import { tempProject } from '../kit/project.js';
import { useFixtureIndex } from './fixture-index.js';

/** A 2.0.0 schema of GET routes, each taking the string parameters named. */
function schema(namespace: string, description: string, routes: Record<string, [string, string[]]>): string {
  const route = ([name, [text, params]]: [string, [string, string[]]]) => {
    const parameters = params.map(
      (key) =>
        `{ position: { key: '${key}', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }`,
    );
    const test = params.map((key) => `, ${key}: 'x'`).join('');
    return `${name}: { method: 'GET', path: '/${name}', description: ${JSON.stringify(text)}, parameters: [${parameters.join(', ')}], tests: [ { _description: 'one'${test} } ] }`;
  };
  return `export const main = { namespace: '${namespace}', name: '${namespace}', description: ${JSON.stringify(description)}, version: '2.0.0', root: 'https://${namespace}.example.com', routes: { ${Object.entries(routes).map(route).join(', ')} } };\n`;
}

const WEATHER = schema('weather', 'Weather.', {
  getForecast: ['Weather forecast of a place.', ['place']],
  getAlerts: ['Weather alerts of a region.', ['region']],
});

describe('feedback: the best results say what a request is about', () => {
  // Two tools say "water level" word for word alike (the same scores); the aquarium's comes first in the catalog.
  const project = tempProject({
    schemas: {
      'aquarium.mjs': schema('aquarium', 'Aquarium sensors.', {
        getWaterLevel: ['Water level of the aquarium tank.', ['tank']],
        getTemperature: ['Temperature of the aquarium tank.', ['tank']],
      }),
      'gauges.mjs': schema('gauges', 'River gauges.', {
        getWaterLevel: ['Water level of a river gauge.', ['gauge']],
        getLevelHistory: ['Past levels of a river gauge.', ['gauge']],
        getFlow: ['Water flow of a river gauge.', ['gauge']],
        getStations: ['Stations of a river gauge network.', ['river']],
      }),
      'weather.mjs': WEATHER,
    },
  });
  afterAll(() => project.remove());
  const { top } = useFixtureIndex(project.schemas);

  it("puts first the tool that shares the other results' terms (three river gauges beside it)", () => {
    expect(top('water level').slice(0, 2)).toEqual(['gauges_getWaterLevel', 'aquarium_getWaterLevel']);
  });

  it("does not pass a tool that has the request's own word", () => {
    expect(top('water level of the aquarium')[0]).toBe('aquarium_getWaterLevel');
    expect(top('water level of the river')[0]).toBe('gauges_getWaterLevel');
  });
});

describe('the "none" rule and words the catalog associates', () => {
  // Slippage stands beside swap, quote, price and impact in two tools; the bridge quote says none of "slippage".
  const project = tempProject({
    schemas: {
      'dex.mjs': schema('dexes', 'Decentralised exchanges.', {
        getSwapQuote: ['Quote of a token swap with its price impact and slippage.', ['token']],
        getSwapRoute: ['Route of a token swap with its price impact and slippage.', ['token']],
        getPools: ['Liquidity pools of a token.', ['token']],
      }),
      'bridge.mjs': schema('bridges', 'Token bridges between chains.', {
        getBridgeQuote: ['Quote of a token bridge transfer with its fees.', ['token']],
        getBridgeStatus: ['Status of a bridge transfer by its id.', ['id']],
      }),
      'weather.mjs': WEATHER,
    },
  });
  afterAll(() => project.remove());
  // A strict rule: the best tool must cover 80 % of the request's weighted words.
  const { top } = useFixtureIndex(project.schemas, { minCoverage: 0.8 });

  it('counts a word the best tool lacks when it has a term the word stands beside', () => {
    // Without the association the bridge quote covers two of three words and the rule refuses.
    expect(top('slippage of a bridge quote')[0]).toBe('bridges_getBridgeQuote');
  });

  it('does not count a word whose neighbours the tool lacks', () => {
    // Forecast stands beside weather words, which the bridge quote does not have.
    expect(top('forecast of a bridge quote')).toEqual([]);
  });

  describe('under a stricter rule', () => {
    const { top: strict } = useFixtureIndex(project.schemas, { minCoverage: 0.9 });

    it('counts it as an aside only (three quarters of its weight), not as the word itself', () => {
      expect(top('slippage of a bridge')[0]).toBe('bridges_getBridgeQuote');
      expect(strict('slippage of a bridge')).toEqual([]);
    });
  });
});
