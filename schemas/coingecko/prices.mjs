// CoinGecko public market data. No key needed for the public tier.
// The API expects snake_case query keys; the tools expose camelCase inputs and a preRequest
// handler renames them in the built URL. getSupportedCurrencies is preloaded (parameterless).
export const main = {
    namespace: 'coingecko',
    name: 'CoinGeckoPrices',
    description: 'Spot prices, token prices by contract address, market charts and coin search from the CoinGecko public API.',
    version: '2.0.0',
    docs: [
        'https://docs.coingecko.com/v3.0.1/reference/introduction',
        'https://docs.coingecko.com/v3.0.1/reference/simple-price'
    ],
    tags: ['crypto', 'prices', 'market-data'],
    root: 'https://api.coingecko.com/api/v3',
    headers: {
        accept: 'application/json'
    },
    routes: {
        getSimplePrice: {
            method: 'GET',
            path: '/simple/price',
            description: 'Current price of one or more coins (CoinGecko ids such as bitcoin or ethereum) in one or more fiat or crypto currencies, optionally with market cap and 24h change.',
            parameters: [
                { position: { key: 'ids', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: [] } },
                { position: { key: 'vsCurrencies', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: [] } },
                { position: { key: 'includeMarketCap', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'boolean()', options: ['optional()', 'default(false)'] } },
                { position: { key: 'include24hrChange', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'boolean()', options: ['optional()'] } },
                { position: { key: 'precision', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(full,0,2,4,6,8)', options: ['optional()'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    description: 'Keyed by coin id; each value is keyed by currency (usd, usd_market_cap, usd_24h_change, ...).',
                    properties: {
                        bitcoin: {
                            type: 'object',
                            nullable: true,
                            properties: {
                                usd: { type: 'number', nullable: true },
                                eur: { type: 'number', nullable: true }
                            }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Bitcoin and Ether in US dollars', ids: ['bitcoin', 'ethereum'], vsCurrencies: ['usd'] },
                { _description: 'Solana in EUR and USD with market cap and 24h change, full precision', ids: ['solana'], vsCurrencies: ['eur', 'usd'], includeMarketCap: true, include24hrChange: true, precision: 'full' },
                { _description: 'Cardano with two decimals', ids: ['cardano'], vsCurrencies: ['usd'], precision: '2' }
            ]
        },
        getTokenPrice: {
            method: 'GET',
            path: '/simple/token_price/{{platform}}',
            description: 'Current price of tokens identified by contract address on one asset platform (ethereum, base, polygon-pos, ...).',
            parameters: [
                { position: { key: 'platform', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(ethereum,base,polygon-pos,arbitrum-one,optimistic-ethereum,binance-smart-chain)', options: [] } },
                { position: { key: 'contractAddresses', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: [] } },
                { position: { key: 'vsCurrencies', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    description: 'Keyed by lowercase contract address; each value is keyed by currency.'
                }
            },
            tests: [
                { _description: 'USDC on Ethereum in USD', platform: 'ethereum', contractAddresses: ['0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'], vsCurrencies: ['usd'] },
                { _description: 'USDC on Base in USD and EUR', platform: 'base', contractAddresses: ['0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'], vsCurrencies: ['usd', 'eur'] }
            ]
        },
        getMarketChart: {
            method: 'GET',
            path: '/coins/{{id}}/market_chart',
            description: 'Historical prices, market caps and total volumes of one coin over the last N days. Granularity is automatic: 5-minutely for 1 day, hourly up to 90 days, daily beyond.',
            parameters: [
                { position: { key: 'id', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(1)', 'max(100)'] } },
                { position: { key: 'vsCurrency', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['min(2)', 'max(10)', 'default(usd)'] } },
                { position: { key: 'days', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(1,7,14,30,90,180,365,max)', options: ['default(30)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        prices: {
                            type: 'array',
                            items: {
                                type: 'object',
                                properties: {
                                    time: { type: 'number', description: 'Unix time in milliseconds.' },
                                    value: { type: 'number' }
                                }
                            }
                        },
                        marketCaps: {
                            type: 'array',
                            items: { type: 'object', properties: { time: { type: 'number' }, value: { type: 'number' } } }
                        },
                        totalVolumes: {
                            type: 'array',
                            items: { type: 'object', properties: { time: { type: 'number' }, value: { type: 'number' } } }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Bitcoin over the last 7 days in USD', id: 'bitcoin', days: '7' },
                { _description: 'Ether over one year in EUR', id: 'ethereum', vsCurrency: 'eur', days: '365' }
            ]
        },
        searchCoins: {
            method: 'GET',
            path: '/search',
            description: 'Search coins, exchanges and categories by name or symbol. Returns CoinGecko ids usable by the other tools.',
            parameters: [
                { position: { key: 'query', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['min(1)', 'max(100)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        coins: {
                            type: 'array',
                            items: {
                                type: 'object',
                                properties: {
                                    id: { type: 'string' },
                                    name: { type: 'string' },
                                    symbol: { type: 'string' },
                                    market_cap_rank: { type: 'number', nullable: true },
                                    thumb: { type: 'string', format: 'uri' }
                                }
                            }
                        },
                        exchanges: { type: 'array', items: { type: 'object' } },
                        categories: { type: 'array', items: { type: 'object' } }
                    }
                }
            },
            tests: [
                { _description: 'Find the id of Chainlink', query: 'chainlink' },
                { _description: 'Search by ticker symbol', query: 'UNI' }
            ]
        },
        getSupportedCurrencies: {
            method: 'GET',
            path: '/simple/supported_vs_currencies',
            description: 'All currency codes accepted as vsCurrencies or vsCurrency by the price tools. Changes rarely, so it is preloaded and cached for a week.',
            parameters: [],
            preload: {
                enabled: true,
                ttl: 604800,
                description: 'The list of quote currencies changes a few times a year.'
            },
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'array',
                    items: { type: 'string', description: 'Lowercase currency code, e.g. usd, eur, btc.' }
                }
            },
            tests: [
                { _description: 'List all supported quote currencies' }
            ]
        }
    }
}

export const handlers = ( { sharedLists, libraries } ) => ( {
    getSimplePrice: {
        preRequest: async ( { struct, payload } ) => {
            const renames = { vsCurrencies: 'vs_currencies', includeMarketCap: 'include_market_cap', include24hrChange: 'include_24hr_change' }
            const [ base, query = '' ] = struct.url.split( '?' )
            const pairs = query
                .split( '&' )
                .filter( ( pair ) => pair.length > 0 )
                .map( ( pair ) => {
                    const cut = pair.indexOf( '=' )
                    const key = cut === -1 ? pair : pair.slice( 0, cut )
                    const rest = cut === -1 ? '' : pair.slice( cut )
                    return ( renames[ key ] ?? key ) + rest
                } )
            return { struct: { ...struct, url: pairs.length > 0 ? `${base}?${pairs.join( '&' )}` : base } }
        }
    },
    getTokenPrice: {
        preRequest: async ( { struct, payload } ) => {
            const renames = { contractAddresses: 'contract_addresses', vsCurrencies: 'vs_currencies' }
            const [ base, query = '' ] = struct.url.split( '?' )
            const pairs = query
                .split( '&' )
                .filter( ( pair ) => pair.length > 0 )
                .map( ( pair ) => {
                    const cut = pair.indexOf( '=' )
                    const key = cut === -1 ? pair : pair.slice( 0, cut )
                    const rest = cut === -1 ? '' : pair.slice( cut )
                    return ( renames[ key ] ?? key ) + rest
                } )
            return { struct: { ...struct, url: pairs.length > 0 ? `${base}?${pairs.join( '&' )}` : base } }
        }
    },
    getMarketChart: {
        preRequest: async ( { struct, payload } ) => {
            return { struct: { ...struct, url: struct.url.replace( 'vsCurrency=', 'vs_currency=' ) } }
        },
        postRequest: async ( { response, struct, payload } ) => {
            const toPoints = ( rows ) => ( Array.isArray( rows ) ? rows : [] )
                .map( ( [ time, value ] ) => ( { time, value } ) )
            return {
                response: {
                    prices: toPoints( response.prices ),
                    marketCaps: toPoints( response.market_caps ),
                    totalVolumes: toPoints( response.total_volumes )
                }
            }
        }
    }
} )
