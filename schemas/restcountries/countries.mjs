// REST Countries v3.1. Public API, no key. Paths use the Express-style `:key` placeholders of
// the corpus; the country code enum is interpolated from the isoCountryCodes shared list.
export const main = {
    namespace: 'restcountries',
    name: 'RestCountries',
    description: 'Facts about the countries of the world: names, capitals, regions, population, currencies and flags, from the open REST Countries API.',
    version: '2.0.0',
    docs: [
        'https://restcountries.com',
        'https://gitlab.com/restcountries/restcountries/-/blob/master/FIELDS.md'
    ],
    tags: ['geo', 'countries', 'reference-data'],
    root: 'https://restcountries.com/v3.1',
    sharedLists: [
        { ref: 'isoCountryCodes', version: '2.0.0' }
    ],
    routes: {
        getCountryByCode: {
            method: 'GET',
            path: '/alpha/:code',
            description: 'One country by its ISO 3166-1 alpha-2 code. Optionally restrict the answer to some fields such as name, capital or population.',
            parameters: [
                { position: { key: 'code', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum({{isoCountryCodes:alpha2}})', options: [] } },
                { position: { key: 'fields', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: ['optional()'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'array',
                    items: {
                        type: 'object',
                        properties: {
                            name: {
                                type: 'object',
                                properties: {
                                    common: { type: 'string' },
                                    official: { type: 'string' }
                                }
                            },
                            cca2: { type: 'string' },
                            cca3: { type: 'string' },
                            capital: { type: 'array', items: { type: 'string' } },
                            region: { type: 'string', enum: ['Africa', 'Americas', 'Antarctic', 'Asia', 'Europe', 'Oceania'] },
                            population: { type: 'number' },
                            flags: { type: 'object', properties: { png: { type: 'string', format: 'uri' }, svg: { type: 'string', format: 'uri' } } }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Germany with all fields', code: 'de' },
                { _description: 'Japan, name and population only', code: 'jp', fields: ['name', 'population'] }
            ]
        },
        getCountriesByRegion: {
            method: 'GET',
            path: '/region/:region',
            description: 'All countries of one world region.',
            parameters: [
                { position: { key: 'region', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum()', options: ['values(africa,americas,asia,europe,oceania)'] } },
                { position: { key: 'fields', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: ['optional()'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'array',
                    items: {
                        type: 'object',
                        properties: {
                            name: { type: 'object', properties: { common: { type: 'string' } } },
                            cca2: { type: 'string' },
                            subregion: { type: 'string', nullable: true },
                            population: { type: 'number' }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Countries of Oceania', region: 'oceania', fields: ['name', 'cca2', 'population'] },
                { _description: 'Countries of Africa', region: 'africa', fields: ['name', 'subregion'] }
            ]
        },
        searchCountriesByName: {
            method: 'GET',
            path: '/name/:name',
            description: 'Search countries by common or official name (partial match by default). Returns a compact summary per country.',
            parameters: [
                { position: { key: 'name', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(2)', 'max(60)'] } },
                { position: { key: 'fullText', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'boolean()', options: ['optional()', 'default(false)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'array',
                    items: {
                        type: 'object',
                        properties: {
                            name: { type: 'string' },
                            officialName: { type: 'string' },
                            cca2: { type: 'string' },
                            capital: { type: 'string', nullable: true },
                            region: { type: 'string' },
                            population: { type: 'number' },
                            flag: { type: 'string', format: 'uri', nullable: true }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Partial match on "united"', name: 'united' },
                { _description: 'Exact full name', name: 'Federal Republic of Germany', fullText: true }
            ]
        },
        getCountriesByCurrency: {
            method: 'GET',
            path: '/currency/:currency',
            description: 'All countries that use a currency, by ISO 4217 code (eur, usd, chf, ...).',
            parameters: [
                { position: { key: 'currency', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['length(3)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'array',
                    items: {
                        type: 'object',
                        properties: {
                            name: { type: 'object', properties: { common: { type: 'string' } } },
                            currencies: { type: 'object', description: 'Keyed by ISO 4217 code.' }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Countries paying in Swiss francs', currency: 'chf' },
                { _description: 'Countries paying in euro', currency: 'eur' }
            ]
        }
    }
}

export const handlers = ( { sharedLists, libraries } ) => ( {
    searchCountriesByName: {
        postRequest: async ( { response, struct, payload } ) => {
            const rows = Array.isArray( response ) ? response : []
            const summary = rows.map( ( country ) => ( {
                name: country.name?.common ?? '',
                officialName: country.name?.official ?? '',
                cca2: country.cca2 ?? '',
                capital: Array.isArray( country.capital ) && country.capital.length > 0 ? country.capital[ 0 ] : null,
                region: country.region ?? '',
                population: typeof country.population === 'number' ? country.population : 0,
                flag: country.flags?.png ?? null
            } ) )
            return { response: summary }
        }
    }
} )
