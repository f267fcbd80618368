// Candle timeframes with the slug each market-data provider expects.
// Pure data: read as a literal, never executed.
export const list = {
    meta: {
        name: 'tradingTimeframes',
        version: '2.0.0',
        description: 'Trading candle timeframes with their length in seconds and provider-specific slugs.',
        fields: [
            { key: 'alias', type: 'string', description: 'Provider-neutral timeframe alias, e.g. 1m, 4h, 1d.' },
            { key: 'seconds', type: 'number', description: 'Length of one candle in seconds.' },
            { key: 'solanaTrackerSlug', type: 'string', description: 'Value of the type parameter of the Solana Tracker chart API.', optional: true },
            { key: 'binanceSlug', type: 'string', description: 'Value of the interval parameter of the Binance klines API.', optional: true }
        ]
    },
    entries: [
        { alias: '1s', seconds: 1, solanaTrackerSlug: '1s', binanceSlug: '1s' },
        { alias: '15s', seconds: 15, solanaTrackerSlug: '15s' },
        { alias: '1m', seconds: 60, solanaTrackerSlug: '1m', binanceSlug: '1m' },
        { alias: '3m', seconds: 180, solanaTrackerSlug: '3m', binanceSlug: '3m' },
        { alias: '5m', seconds: 300, solanaTrackerSlug: '5m', binanceSlug: '5m' },
        { alias: '15m', seconds: 900, solanaTrackerSlug: '15m', binanceSlug: '15m' },
        { alias: '30m', seconds: 1800, solanaTrackerSlug: '30m', binanceSlug: '30m' },
        { alias: '1h', seconds: 3600, solanaTrackerSlug: '1h', binanceSlug: '1h' },
        { alias: '2h', seconds: 7200, solanaTrackerSlug: '2h', binanceSlug: '2h' },
        { alias: '4h', seconds: 14400, solanaTrackerSlug: '4h', binanceSlug: '4h' },
        { alias: '6h', seconds: 21600, solanaTrackerSlug: '6h', binanceSlug: '6h' },
        { alias: '12h', seconds: 43200, solanaTrackerSlug: '12h', binanceSlug: '12h' },
        { alias: '1d', seconds: 86400, solanaTrackerSlug: '1d', binanceSlug: '1d' },
        { alias: '3d', seconds: 259200, solanaTrackerSlug: '3d', binanceSlug: '3d' },
        { alias: '1w', seconds: 604800, solanaTrackerSlug: '1w', binanceSlug: '1w' },
        { alias: '1M', seconds: 2592000, solanaTrackerSlug: '1mn', binanceSlug: '1M' }
    ]
}
