// Blockscout hosted explorers (<chain>.blockscout.com). Public API, no key.
// `root` carries the corpus `--chain--` marker label; every route's preRequest replaces it with
// the Blockscout sub-domain looked up in the evmChains list. That list reference is used only
// by the handlers (no enum interpolates it). chainId is an insert parameter with no placeholder:
// an input that only the handlers read.
export const main = {
    namespace: 'blockscout',
    name: 'BlockscoutExplorer',
    description: 'Addresses, transactions, tokens, blocks and network statistics from the open Blockscout explorers of Ethereum, Base, Optimism, Arbitrum, Gnosis and other EVM chains.',
    version: '2.0.0',
    docs: [
        'https://docs.blockscout.com/devs/apis/rest',
        'https://docs.blockscout.com/devs/apis/rpc/account'
    ],
    tags: ['evm', 'blockchain', 'explorer'],
    root: 'https://--chain--.blockscout.com',
    sharedLists: [
        { ref: 'evmChains', version: '2.0.0', filter: { key: 'blockscoutSlug', exists: true } }
    ],
    routes: {
        getAddress: {
            method: 'GET',
            path: '/api/v2/addresses/{{address}}',
            description: 'Balance, contract status, ENS name and token counters of an address.',
            parameters: [
                { position: { key: 'chainId', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(1,10,100,137,324,8453,42161,42220,534352,84532,11155111)', options: [] } },
                { position: { key: 'address', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['regex(^0x[a-fA-F0-9]{40}$)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        hash: { type: 'string' },
                        coin_balance: { type: 'string', nullable: true, description: 'Native balance in wei.' },
                        is_contract: { type: 'boolean' },
                        ens_domain_name: { type: 'string', nullable: true },
                        exchange_rate: { type: 'string', nullable: true },
                        token: { type: 'object', nullable: true, properties: { name: { type: 'string' }, symbol: { type: 'string' } } }
                    }
                }
            },
            tests: [
                { _description: 'vitalik.eth on Ethereum', chainId: 1, address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' },
                { _description: 'USDC contract on Base', chainId: 8453, address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' }
            ]
        },
        getAddressTransactions: {
            method: 'GET',
            path: '/api/v2/addresses/{{address}}/transactions',
            description: 'Latest transactions of an address (50 per page), optionally only incoming or only outgoing ones.',
            parameters: [
                { position: { key: 'chainId', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(1,10,100,137,324,8453,42161,42220,534352,84532,11155111)', options: [] } },
                { position: { key: 'address', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['regex(^0x[a-fA-F0-9]{40}$)'] } },
                { position: { key: 'filter', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(to,from)', options: ['optional()'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        items: {
                            type: 'array',
                            items: {
                                type: 'object',
                                properties: {
                                    hash: { type: 'string' },
                                    block_number: { type: 'number' },
                                    timestamp: { type: 'string', format: 'date-time' },
                                    value: { type: 'string' },
                                    status: { type: 'string', nullable: true }
                                }
                            }
                        },
                        next_page_params: { type: 'object', nullable: true }
                    }
                }
            },
            tests: [
                { _description: 'All recent transactions of vitalik.eth on Optimism', chainId: 10, address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' },
                { _description: 'Outgoing transactions only, on Gnosis', chainId: '100', address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', filter: 'from' },
                { _description: 'Incoming transactions only, on Sepolia', chainId: 11155111, address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', filter: 'to' }
            ]
        },
        getBlock: {
            method: 'GET',
            path: '/api/v2/blocks/{{blockNumber}}',
            description: 'One block by number: timestamp, miner, gas used, transaction count and burnt fees.',
            parameters: [
                { position: { key: 'chainId', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(1,10,100,137,324,8453,42161,42220,534352,84532,11155111)', options: [] } },
                { position: { key: 'blockNumber', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'number()', options: ['min(0)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        height: { type: 'number' },
                        hash: { type: 'string' },
                        timestamp: { type: 'string', format: 'date-time' },
                        gas_used: { type: 'string' },
                        transaction_count: { type: 'number' },
                        miner: { type: 'object', properties: { hash: { type: 'string' } } }
                    }
                }
            },
            tests: [
                { _description: 'The Merge block on Ethereum', chainId: 1, blockNumber: 15537394 },
                { _description: 'Genesis block of Arbitrum One', chainId: 42161, blockNumber: 0 }
            ]
        },
        getChainStats: {
            method: 'GET',
            path: '/api/v2/stats',
            description: 'Network statistics: total blocks, transactions and addresses, average block time, gas prices and coin price.',
            parameters: [
                { position: { key: 'chainId', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(1,10,100,137,324,8453,42161,42220,534352,84532,11155111)', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        total_blocks: { type: 'string' },
                        total_transactions: { type: 'string' },
                        total_addresses: { type: 'string' },
                        average_block_time: { type: 'number' },
                        coin_price: { type: 'string', nullable: true },
                        gas_prices: {
                            type: 'object',
                            nullable: true,
                            properties: { slow: { type: 'number' }, average: { type: 'number' }, fast: { type: 'number' } }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Statistics of Base', chainId: 8453 },
                { _description: 'Statistics of Polygon', chainId: 137 }
            ]
        },
        getBalanceCompat: {
            method: 'GET',
            path: '/api?module=account&action=balance',
            description: 'Native balance of an address through the Etherscan-compatible RPC API of Blockscout (no key needed). The result is in wei.',
            parameters: [
                { position: { key: 'chainId', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(1,10,100,137,324,8453,42161,42220,534352,84532,11155111)', options: [] } },
                { position: { key: 'address', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['regex(^0x[a-fA-F0-9]{40}$)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        status: { type: 'string' },
                        message: { type: 'string' },
                        result: { type: 'string', nullable: true }
                    }
                }
            },
            tests: [
                { _description: 'vitalik.eth on Scroll', chainId: 534352, address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' },
                { _description: 'vitalik.eth on Celo', chainId: 42220, address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' }
            ]
        }
    }
}

export const handlers = ( { sharedLists, libraries } ) => ( {
    getAddress: {
        preRequest: async ( { struct, payload } ) => {
            const entry = sharedLists.evmChains.find( ( chain ) => chain.chainId === Number( payload.chainId ) )
            if( !entry ) { throw new Error( `no Blockscout explorer for chain ${payload.chainId}` ) }
            return { struct: { ...struct, url: struct.url.replace( '--chain--', entry.blockscoutSlug ) } }
        }
    },
    getAddressTransactions: {
        preRequest: async ( { struct, payload } ) => {
            const entry = sharedLists.evmChains.find( ( chain ) => chain.chainId === Number( payload.chainId ) )
            if( !entry ) { throw new Error( `no Blockscout explorer for chain ${payload.chainId}` ) }
            return { struct: { ...struct, url: struct.url.replace( '--chain--', entry.blockscoutSlug ) } }
        },
        postRequest: async ( { response, struct, payload } ) => {
            const items = Array.isArray( response?.items ) ? response.items : []
            return {
                response: {
                    items: items.map( ( tx ) => ( {
                        hash: tx.hash,
                        block_number: tx.block_number ?? tx.block,
                        timestamp: tx.timestamp,
                        value: tx.value,
                        status: tx.status ?? null
                    } ) ),
                    next_page_params: response?.next_page_params ?? null
                }
            }
        }
    },
    getBlock: {
        preRequest: async ( { struct, payload } ) => {
            const entry = sharedLists.evmChains.find( ( chain ) => chain.chainId === Number( payload.chainId ) )
            if( !entry ) { throw new Error( `no Blockscout explorer for chain ${payload.chainId}` ) }
            return { struct: { ...struct, url: struct.url.replace( '--chain--', entry.blockscoutSlug ) } }
        }
    },
    getChainStats: {
        preRequest: async ( { struct, payload } ) => {
            const entry = sharedLists.evmChains.find( ( chain ) => chain.chainId === Number( payload.chainId ) )
            if( !entry ) { throw new Error( `no Blockscout explorer for chain ${payload.chainId}` ) }
            return { struct: { ...struct, url: struct.url.replace( '--chain--', entry.blockscoutSlug ) } }
        }
    },
    getBalanceCompat: {
        preRequest: async ( { struct, payload } ) => {
            const entry = sharedLists.evmChains.find( ( chain ) => chain.chainId === Number( payload.chainId ) )
            if( !entry ) { throw new Error( `no Blockscout explorer for chain ${payload.chainId}` ) }
            return { struct: { ...struct, url: struct.url.replace( '--chain--', entry.blockscoutSlug ) } }
        }
    }
} )
