// EVM chains with the provider-specific identifiers the bundled schemas need.
// Pure data: read as a literal, never executed.
export const list = {
    meta: {
        name: 'evmChains',
        version: '2.0.0',
        description: 'EVM-compatible networks with chain id, native currency and provider-specific aliases (Etherscan v2, Blockscout).',
        fields: [
            { key: 'alias', type: 'string', description: 'Provider-neutral chain alias in UPPER_SNAKE_CASE.' },
            { key: 'chainId', type: 'number', description: 'EIP-155 chain id.' },
            { key: 'name', type: 'string', description: 'Human-readable network name.' },
            { key: 'isTestnet', type: 'boolean', description: 'True for test networks without monetary value.' },
            { key: 'nativeCurrency', type: 'string', description: 'Symbol of the gas token.' },
            { key: 'etherscanAlias', type: 'string', description: 'Alias used for the chain in Etherscan v2 schemas; absent when Etherscan does not index the chain.', optional: true },
            { key: 'blockscoutSlug', type: 'string', description: 'Sub-domain of the hosted Blockscout explorer (<slug>.blockscout.com).', optional: true }
        ]
    },
    entries: [
        { alias: 'ETHEREUM_MAINNET', chainId: 1, name: 'Ethereum Mainnet', isTestnet: false, nativeCurrency: 'ETH', etherscanAlias: 'ETHEREUM_MAINNET', blockscoutSlug: 'eth' },
        { alias: 'OPTIMISM_MAINNET', chainId: 10, name: 'OP Mainnet', isTestnet: false, nativeCurrency: 'ETH', etherscanAlias: 'OPTIMISM_MAINNET', blockscoutSlug: 'optimism' },
        { alias: 'BINANCE_MAINNET', chainId: 56, name: 'BNB Smart Chain Mainnet', isTestnet: false, nativeCurrency: 'BNB', etherscanAlias: 'BINANCE_MAINNET' },
        { alias: 'GNOSIS_MAINNET', chainId: 100, name: 'Gnosis', isTestnet: false, nativeCurrency: 'xDAI', etherscanAlias: 'GNOSIS_MAINNET', blockscoutSlug: 'gnosis' },
        { alias: 'POLYGON_MAINNET', chainId: 137, name: 'Polygon Mainnet', isTestnet: false, nativeCurrency: 'POL', etherscanAlias: 'POLYGON_MAINNET', blockscoutSlug: 'polygon' },
        { alias: 'FANTOM_MAINNET', chainId: 250, name: 'Fantom Opera', isTestnet: false, nativeCurrency: 'FTM' },
        { alias: 'ZKSYNC_MAINNET', chainId: 324, name: 'zkSync Era Mainnet', isTestnet: false, nativeCurrency: 'ETH', etherscanAlias: 'ZKSYNC_MAINNET', blockscoutSlug: 'zksync' },
        { alias: 'MANTLE_MAINNET', chainId: 5000, name: 'Mantle Mainnet', isTestnet: false, nativeCurrency: 'MNT', etherscanAlias: 'MANTLE_MAINNET' },
        { alias: 'BASE_MAINNET', chainId: 8453, name: 'Base Mainnet', isTestnet: false, nativeCurrency: 'ETH', etherscanAlias: 'BASE_MAINNET', blockscoutSlug: 'base' },
        { alias: 'ARBITRUM_ONE_MAINNET', chainId: 42161, name: 'Arbitrum One', isTestnet: false, nativeCurrency: 'ETH', etherscanAlias: 'ARBITRUM_ONE_MAINNET', blockscoutSlug: 'arbitrum' },
        { alias: 'CELO_MAINNET', chainId: 42220, name: 'Celo Mainnet', isTestnet: false, nativeCurrency: 'CELO', etherscanAlias: 'CELO_MAINNET', blockscoutSlug: 'celo' },
        { alias: 'AVALANCHE_MAINNET', chainId: 43114, name: 'Avalanche C-Chain', isTestnet: false, nativeCurrency: 'AVAX', etherscanAlias: 'AVALANCHE_CCHAIN' },
        { alias: 'LINEA_MAINNET', chainId: 59144, name: 'Linea Mainnet', isTestnet: false, nativeCurrency: 'ETH', etherscanAlias: 'LINEA_MAINNET' },
        { alias: 'SCROLL_MAINNET', chainId: 534352, name: 'Scroll Mainnet', isTestnet: false, nativeCurrency: 'ETH', etherscanAlias: 'SCROLL_MAINNET', blockscoutSlug: 'scroll' },
        { alias: 'BASE_SEPOLIA_TESTNET', chainId: 84532, name: 'Base Sepolia Testnet', isTestnet: true, nativeCurrency: 'ETH', etherscanAlias: 'BASE_SEPOLIA_TESTNET', blockscoutSlug: 'base-sepolia' },
        { alias: 'POLYGON_AMOY_TESTNET', chainId: 80002, name: 'Polygon Amoy Testnet', isTestnet: true, nativeCurrency: 'POL', etherscanAlias: 'POLYGON_AMOY_TESTNET' },
        { alias: 'SEPOLIA_TESTNET', chainId: 11155111, name: 'Sepolia Testnet', isTestnet: true, nativeCurrency: 'ETH', etherscanAlias: 'SEPOLIA_TESTNET', blockscoutSlug: 'eth-sepolia' }
    ]
}
