// Etherscan API v2 (one key, many chains). Needs ETHERSCAN_API_KEY, passed as a
// {{SERVER_PARAM:...}} query value that only the core substitutes. Paths carry a literal query
// string. The chain is chosen through a mixed enum (static `custom` + the evmChains list,
// testnets filtered out); a preRequest turns it into the `chainid` query parameter.
export const main = {
    namespace: 'etherscan',
    name: 'EtherscanAccounts',
    description: 'Native and ERC-20 balances, transaction history and gas prices for addresses on Ethereum and 50+ EVM chains via the Etherscan v2 API.',
    version: '2.0.0',
    docs: [
        'https://docs.etherscan.io/etherscan-v2',
        'https://docs.etherscan.io/etherscan-v2/api-endpoints/accounts'
    ],
    tags: ['ethereum', 'evm', 'blockchain', 'explorer'],
    root: 'https://api.etherscan.io',
    requiredServerParams: ['ETHERSCAN_API_KEY'],
    requiredLibraries: ['ethers'],
    sharedLists: [
        { ref: 'evmChains', version: '2.0.0', filter: { key: 'isTestnet', value: false } }
    ],
    routes: {
        getBalance: {
            method: 'GET',
            path: '/v2/api?module=account&action=balance',
            description: 'Native coin balance of an address on a mainnet, in wei and in whole coins (ETH, POL, BNB, ...). Use chain "custom" with customChainId for chains not in the list.',
            parameters: [
                { position: { key: 'chain', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(custom,{{evmChains:etherscanAlias}})', options: [] } },
                { position: { key: 'customChainId', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'number()', options: ['min(1)', 'optional()'] } },
                { position: { key: 'address', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['regex(^0x[a-fA-F0-9]{40}$)'] } },
                { position: { key: 'tag', value: 'latest', location: 'query' }, z: { primitive: 'enum(latest,earliest,pending)', options: [] } },
                { position: { key: 'apikey', value: '{{SERVER_PARAM:ETHERSCAN_API_KEY}}', location: 'query' }, z: { primitive: 'string()', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        status: { type: 'string', enum: ['0', '1'] },
                        message: { type: 'string' },
                        chainId: { type: 'number' },
                        balanceWei: { type: 'string', description: 'Balance in wei as a decimal string.' },
                        balance: { type: 'string', description: 'Balance in whole coins (18 decimals).' }
                    }
                }
            },
            tests: [
                { _description: 'vitalik.eth on Ethereum mainnet', chain: 'ETHEREUM_MAINNET', address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' },
                { _description: 'Same address on Base', chain: 'BASE_MAINNET', address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' },
                { _description: 'Blast (81457) through a custom chain id', chain: 'custom', customChainId: 81457, address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' }
            ]
        },
        getTransactions: {
            method: 'GET',
            path: '/v2/api?module=account&action=txlist',
            description: 'Normal transactions sent from or to an address, paginated, optionally limited to a block range.',
            parameters: [
                { position: { key: 'chain', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(custom,{{evmChains:etherscanAlias}})', options: [] } },
                { position: { key: 'customChainId', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'number()', options: ['min(1)', 'optional()'] } },
                { position: { key: 'address', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['regex(^0x[a-fA-F0-9]{40}$)'] } },
                { position: { key: 'startblock', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(0)', 'optional()'] } },
                { position: { key: 'endblock', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(0)', 'optional()'] } },
                { position: { key: 'page', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(1)', 'default(1)'] } },
                { position: { key: 'offset', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(1)', 'max(100)', 'optional()', 'default(10)'] } },
                { position: { key: 'sort', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(asc,desc)', options: ['default(desc)'] } },
                { position: { key: 'apikey', value: '{{SERVER_PARAM:ETHERSCAN_API_KEY}}', location: 'query' }, z: { primitive: 'string()', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        status: { type: 'string' },
                        message: { type: 'string' },
                        result: {
                            type: 'array',
                            items: {
                                type: 'object',
                                properties: {
                                    blockNumber: { type: 'string' },
                                    timeStamp: { type: 'string' },
                                    hash: { type: 'string' },
                                    from: { type: 'string' },
                                    to: { type: 'string' },
                                    value: { type: 'string', description: 'Value in wei.' },
                                    isError: { type: 'string', enum: ['0', '1'] }
                                }
                            }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Latest 10 transactions of vitalik.eth on Ethereum, newest first', chain: 'ETHEREUM_MAINNET', address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', sort: 'desc' },
                { _description: 'Oldest transactions on Arbitrum in a block range', chain: 'ARBITRUM_ONE_MAINNET', address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', startblock: 0, endblock: 99999999, page: 1, offset: 5, sort: 'asc' },
                { _description: 'Page 2 on Sonic (146) through a custom chain id', chain: 'custom', customChainId: 146, address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', page: 2 }
            ]
        },
        getTokenBalance: {
            method: 'GET',
            path: '/v2/api?module=account&action=tokenbalance',
            description: 'ERC-20 token balance of an address for one token contract, in the token\'s smallest unit.',
            parameters: [
                { position: { key: 'chain', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(custom,{{evmChains:etherscanAlias}})', options: [] } },
                { position: { key: 'customChainId', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'number()', options: ['min(1)', 'optional()'] } },
                { position: { key: 'contractaddress', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['regex(^0x[a-fA-F0-9]{40}$)'] } },
                { position: { key: 'address', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['regex(^0x[a-fA-F0-9]{40}$)'] } },
                { position: { key: 'tag', value: 'latest', location: 'query' }, z: { primitive: 'enum(latest,earliest,pending)', options: [] } },
                { position: { key: 'apikey', value: '{{SERVER_PARAM:ETHERSCAN_API_KEY}}', location: 'query' }, z: { primitive: 'string()', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        status: { type: 'string' },
                        message: { type: 'string' },
                        result: { type: 'string', description: 'Balance in the token\'s smallest unit.' }
                    }
                }
            },
            tests: [
                { _description: 'USDC held by the Circle treasury on Ethereum', chain: 'ETHEREUM_MAINNET', contractaddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', address: '0x55FE002aefF02F77364de339a1292923A15844B8' },
                { _description: 'USDC on Polygon', chain: 'POLYGON_MAINNET', contractaddress: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', address: '0xe7804c37c13166fF0b37F5aE0BB07A3aEbb6e245' },
                { _description: 'USDC on Unichain (130) through a custom chain id', chain: 'custom', customChainId: 130, contractaddress: '0x078D782b760474a361dDA0AF3839290b0EF57AD6', address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' }
            ]
        },
        getGasOracle: {
            method: 'GET',
            path: '/v2/api?module=gastracker&action=gasoracle',
            description: 'Current safe, proposed and fast gas prices in gwei and the base fee of the latest block.',
            parameters: [
                { position: { key: 'chain', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(custom,{{evmChains:etherscanAlias}})', options: [] } },
                { position: { key: 'customChainId', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'number()', options: ['min(1)', 'optional()'] } },
                { position: { key: 'apikey', value: '{{SERVER_PARAM:ETHERSCAN_API_KEY}}', location: 'query' }, z: { primitive: 'string()', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        status: { type: 'string' },
                        message: { type: 'string' },
                        result: {
                            type: 'object',
                            properties: {
                                LastBlock: { type: 'string' },
                                SafeGasPrice: { type: 'string' },
                                ProposeGasPrice: { type: 'string' },
                                FastGasPrice: { type: 'string' },
                                suggestBaseFee: { type: 'string' },
                                gasUsedRatio: { type: 'string' }
                            }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Gas prices on Ethereum', chain: 'ETHEREUM_MAINNET' },
                { _description: 'Gas prices on Polygon', chain: 'POLYGON_MAINNET' },
                { _description: 'Gas prices on Blast (81457) through a custom chain id', chain: 'custom', customChainId: 81457 }
            ]
        }
    }
}

export const handlers = ( { sharedLists, libraries } ) => ( {
    getBalance: {
        preRequest: async ( { struct, payload } ) => {
            const entry = sharedLists.evmChains.find( ( chain ) => chain.etherscanAlias === payload.chain )
            const chainId = payload.chain === 'custom' ? payload.customChainId : entry?.chainId
            if( chainId === undefined ) { throw new Error( 'chain "custom" needs customChainId' ) }
            return { struct: { ...struct, url: `${struct.url}&chainid=${chainId}` } }
        },
        postRequest: async ( { response, struct, payload } ) => {
            const entry = sharedLists.evmChains.find( ( chain ) => chain.etherscanAlias === payload.chain )
            const chainId = payload.chain === 'custom' ? payload.customChainId : entry?.chainId
            if( response.status !== '1' ) { return { response: { ...response, chainId } } }
            const balanceWei = String( response.result )
            const balance = libraries.ethers.formatEther( balanceWei )
            return { response: { status: response.status, message: response.message, chainId, balanceWei, balance } }
        }
    },
    getTransactions: {
        preRequest: async ( { struct, payload } ) => {
            const entry = sharedLists.evmChains.find( ( chain ) => chain.etherscanAlias === payload.chain )
            const chainId = payload.chain === 'custom' ? payload.customChainId : entry?.chainId
            if( chainId === undefined ) { throw new Error( 'chain "custom" needs customChainId' ) }
            return { struct: { ...struct, url: `${struct.url}&chainid=${chainId}` } }
        }
    },
    getTokenBalance: {
        preRequest: async ( { struct, payload } ) => {
            const entry = sharedLists.evmChains.find( ( chain ) => chain.etherscanAlias === payload.chain )
            const chainId = payload.chain === 'custom' ? payload.customChainId : entry?.chainId
            if( chainId === undefined ) { throw new Error( 'chain "custom" needs customChainId' ) }
            return { struct: { ...struct, url: `${struct.url}&chainid=${chainId}` } }
        }
    },
    getGasOracle: {
        preRequest: async ( { struct, payload } ) => {
            const entry = sharedLists.evmChains.find( ( chain ) => chain.etherscanAlias === payload.chain )
            const chainId = payload.chain === 'custom' ? payload.customChainId : entry?.chainId
            if( chainId === undefined ) { throw new Error( 'chain "custom" needs customChainId' ) }
            return { struct: { ...struct, url: `${struct.url}&chainid=${chainId}` } }
        }
    }
} )
