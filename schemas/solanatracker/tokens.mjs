// Solana Tracker data API. Needs SOLANA_TRACKER_API_KEY, sent in a default header written in the
// corpus idiom: a bare {{KEY}} inside main.headers, substituted by the core just before the
// request leaves. Paths use {{key}} insert placeholders; getTokensByAddress sends a JSON body.
export const main = {
    namespace: 'solanatracker',
    name: 'SolanaTrackerTokens',
    description: 'Solana token metadata, pools, price charts, trending tokens and token search from the Solana Tracker data API.',
    version: '2.0.0',
    docs: [
        'https://docs.solanatracker.io',
        'https://docs.solanatracker.io/public-data-api/docs'
    ],
    tags: ['solana', 'tokens', 'dex', 'charts'],
    root: 'https://data.solanatracker.io',
    requiredServerParams: ['SOLANA_TRACKER_API_KEY'],
    headers: {
        'x-api-key': '{{SOLANA_TRACKER_API_KEY}}',
        accept: 'application/json'
    },
    sharedLists: [
        { ref: 'tradingTimeframes', version: '2.0.0', filter: { key: 'solanaTrackerSlug', exists: true } }
    ],
    routes: {
        getTokenInfo: {
            method: 'GET',
            path: '/tokens/{{tokenAddress}}',
            description: 'Metadata, liquidity pools, price and market cap of one SPL token by mint address.',
            parameters: [
                { position: { key: 'tokenAddress', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(32)', 'max(44)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        token: {
                            type: 'object',
                            properties: {
                                name: { type: 'string' },
                                symbol: { type: 'string' },
                                mint: { type: 'string' },
                                decimals: { type: 'number' },
                                image: { type: 'string', format: 'uri', nullable: true }
                            }
                        },
                        pools: {
                            type: 'array',
                            items: {
                                type: 'object',
                                properties: {
                                    poolId: { type: 'string' },
                                    market: { type: 'string' },
                                    liquidity: { type: 'object' },
                                    price: { type: 'object' }
                                }
                            }
                        },
                        holders: { type: 'number' }
                    }
                }
            },
            tests: [
                { _description: 'Wrapped SOL', tokenAddress: 'So11111111111111111111111111111111111111112' },
                { _description: 'USDC on Solana', tokenAddress: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' }
            ]
        },
        getTokenChart: {
            method: 'GET',
            path: '/chart/{{tokenAddress}}',
            description: 'OHLCV candles of a token for one timeframe, optionally as market cap instead of price and with outlier candles removed.',
            parameters: [
                { position: { key: 'tokenAddress', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(32)', 'max(44)'] } },
                { position: { key: 'type', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum({{tradingTimeframes:solanaTrackerSlug}})', options: ['default(1h)'] } },
                { position: { key: 'marketCap', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'boolean()', options: ['optional()'] } },
                { position: { key: 'removeOutliers', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'boolean()', options: ['optional()', 'default(true)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        timeframe: { type: 'string' },
                        intervalSeconds: { type: 'number', nullable: true },
                        count: { type: 'number' },
                        candles: {
                            type: 'array',
                            items: {
                                type: 'object',
                                properties: {
                                    open: { type: 'number' },
                                    high: { type: 'number' },
                                    low: { type: 'number' },
                                    close: { type: 'number' },
                                    volume: { type: 'number' },
                                    time: { type: 'number', description: 'Unix time in seconds.' }
                                }
                            }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Hourly candles of wrapped SOL', tokenAddress: 'So11111111111111111111111111111111111111112' },
                { _description: 'Daily market-cap candles of BONK', tokenAddress: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', type: '1d', marketCap: true, removeOutliers: false },
                { _description: '5-minute candles of USDC', tokenAddress: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', type: '5m' }
            ]
        },
        getTrendingTokens: {
            method: 'GET',
            path: '/tokens/trending/{{timeframe}}',
            description: 'Tokens with the most trading activity over a recent window.',
            parameters: [
                { position: { key: 'timeframe', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(5m,15m,30m,1h,2h,3h,4h,5h,6h,12h,24h)', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'array',
                    items: {
                        type: 'object',
                        properties: {
                            token: { type: 'object', properties: { name: { type: 'string' }, symbol: { type: 'string' }, mint: { type: 'string' } } },
                            pools: { type: 'array', items: { type: 'object' } }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Trending over the last hour', timeframe: '1h' },
                { _description: 'Trending over the last day', timeframe: '24h' }
            ]
        },
        searchTokens: {
            method: 'GET',
            path: '/search',
            description: 'Search tokens by name, symbol or mint address, sorted by liquidity, market cap or creation time.',
            parameters: [
                { position: { key: 'query', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['min(1)', 'max(100)'] } },
                { position: { key: 'page', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(1)', 'optional()'] } },
                { position: { key: 'limit', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(1)', 'max(500)', 'default(100)'] } },
                { position: { key: 'sortBy', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(liquidityUsd,marketCapUsd,createdAt)', options: ['optional()', 'default(liquidityUsd)'] } },
                { position: { key: 'sortOrder', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(asc,desc)', options: ['optional()', 'default(desc)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        status: { type: 'string' },
                        total: { type: 'number' },
                        pages: { type: 'number' },
                        data: {
                            type: 'array',
                            items: {
                                type: 'object',
                                properties: {
                                    name: { type: 'string' },
                                    symbol: { type: 'string' },
                                    mint: { type: 'string' },
                                    liquidityUsd: { type: 'number' },
                                    marketCapUsd: { type: 'number' }
                                }
                            }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Tokens named like "bonk", most liquid first', query: 'bonk', sortBy: 'liquidityUsd', sortOrder: 'desc' },
                { _description: 'Newest "pepe" tokens, first page of 20', query: 'pepe', page: 1, limit: 20, sortBy: 'createdAt', sortOrder: 'asc' }
            ]
        },
        getTokensByAddress: {
            method: 'POST',
            path: '/tokens/multi',
            description: 'Metadata and pools for up to 20 tokens in one request, by mint address.',
            parameters: [
                { position: { key: 'tokens', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'array()', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    description: 'Keyed by mint address; each value has the shape of getTokenInfo.'
                }
            },
            tests: [
                { _description: 'Wrapped SOL and USDC together', tokens: ['So11111111111111111111111111111111111111112', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'] }
            ]
        }
    }
}

export const handlers = ( { sharedLists, libraries } ) => ( {
    getTokenChart: {
        postRequest: async ( { response, struct, payload } ) => {
            const timeframe = payload.type ?? '1h'
            const frame = sharedLists.tradingTimeframes.find( ( entry ) => entry.solanaTrackerSlug === timeframe )
            const candles = Array.isArray( response?.oclhv ) ? response.oclhv : []
            return {
                response: {
                    timeframe,
                    intervalSeconds: frame ? frame.seconds : null,
                    count: candles.length,
                    candles
                }
            }
        }
    }
} )
