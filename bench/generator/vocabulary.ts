// The parameter templates a generated schema is made of, by location (insert, query, body); the
// API domains with their resources and fields, and the route verbs, are in domains.ts.

export interface ParamTemplate {
  key: string;
  primitive: string;
  options: string[];
  /** Values that satisfy the z block; tests take them in turn so enum values vary. */
  samples: unknown[];
  /** What the parameter means, for descriptions. */
  about: string;
}

const ADDRESSES = [
  '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
];

const DATE = 'regex(^[0-9]{4}-[0-9]{2}-[0-9]{2}$)';

/** Path segments: always required, so neither optional() nor default(). */
export const INSERT_PARAMS: ParamTemplate[] = [
  {
    key: 'id',
    primitive: 'string()',
    options: ['min(1)', 'max(64)'],
    samples: ['btc-bitcoin', 'eth-ethereum', 'sol-solana'],
    about: 'identifier',
  },
  {
    key: 'accountId',
    primitive: 'string()',
    options: ['length(12)'],
    samples: ['acc000000001', 'acc7f3k2m9x1'],
    about: 'account',
  },
  {
    key: 'address',
    primitive: 'string()',
    options: ['regex(^0x[a-fA-F0-9]{40}$)'],
    samples: ADDRESSES,
    about: 'address',
  },
  {
    key: 'symbol',
    primitive: 'string()',
    options: ['min(1)', 'max(12)'],
    samples: ['BTC', 'ETH', 'AAPL'],
    about: 'ticker symbol',
  },
  { key: 'region', primitive: 'enum(eu,us,apac,latam)', options: [], samples: ['eu', 'us', 'apac'], about: 'region' },
  {
    key: 'category',
    primitive: 'enum(news,sports,science,business,culture)',
    options: [],
    samples: ['science', 'business', 'news'],
    about: 'category',
  },
  { key: 'orderId', primitive: 'number()', options: ['min(1)'], samples: [1024, 77, 500001], about: 'order number' },
  {
    key: 'year',
    primitive: 'number()',
    options: ['min(1900)', 'max(2100)'],
    samples: [2023, 2024, 1999],
    about: 'year',
  },
  {
    key: 'slug',
    primitive: 'string()',
    options: ['min(3)', 'max(80)'],
    samples: ['annual-report', 'city-centre', 'open-data'],
    about: 'slug',
  },
  {
    key: 'network',
    primitive: 'enum(mainnet,testnet)',
    options: [],
    samples: ['mainnet', 'testnet'],
    about: 'network',
  },
  {
    key: 'stationId',
    primitive: 'string()',
    options: ['min(3)', 'max(16)'],
    samples: ['10384', 'KJFK', 'EDDM'],
    about: 'station',
  },
];

export const QUERY_PARAMS: ParamTemplate[] = [
  {
    key: 'limit',
    primitive: 'number()',
    options: ['min(1)', 'max(100)', 'default(10)'],
    samples: [25, 5, 100],
    about: 'page size',
  },
  {
    key: 'page',
    primitive: 'number()',
    options: ['min(1)', 'optional()', 'default(1)'],
    samples: [2, 1, 3],
    about: 'page number',
  },
  { key: 'offset', primitive: 'number()', options: ['min(0)', 'optional()'], samples: [0, 50, 200], about: 'offset' },
  {
    key: 'sort',
    primitive: 'enum(asc,desc)',
    options: ['default(desc)'],
    samples: ['asc', 'desc'],
    about: 'sort direction',
  },
  {
    key: 'orderBy',
    primitive: 'enum(createdAt,updatedAt,name,volume)',
    options: ['optional()'],
    samples: ['createdAt', 'volume', 'name'],
    about: 'sort field',
  },
  {
    key: 'currency',
    primitive: 'enum(usd,eur,gbp,jpy,chf)',
    options: ['default(usd)'],
    samples: ['eur', 'usd', 'jpy'],
    about: 'quote currency',
  },
  {
    key: 'from',
    primitive: 'string()',
    options: [DATE, 'optional()'],
    samples: ['2024-01-01', '2023-06-15'],
    about: 'start date',
  },
  {
    key: 'to',
    primitive: 'string()',
    options: [DATE, 'optional()'],
    samples: ['2024-03-31', '2023-12-31'],
    about: 'end date',
  },
  {
    key: 'interval',
    primitive: 'enum(1m,5m,15m,1h,4h,1d)',
    options: ['default(1h)'],
    samples: ['1d', '15m', '4h'],
    about: 'interval',
  },
  {
    key: 'includeMetadata',
    primitive: 'boolean()',
    options: ['optional()', 'default(false)'],
    samples: [true, false],
    about: 'metadata flag',
  },
  { key: 'verbose', primitive: 'boolean()', options: ['optional()'], samples: [true, false], about: 'verbosity flag' },
  {
    key: 'search',
    primitive: 'string()',
    options: ['min(2)', 'max(100)', 'optional()'],
    samples: ['solar', 'berlin', 'uniswap'],
    about: 'search text',
  },
  {
    key: 'query',
    primitive: 'string()',
    options: ['min(1)', 'max(200)'],
    samples: ['bitcoin', 'rain radar', 'quarterly results'],
    about: 'search query',
  },
  {
    key: 'lang',
    primitive: 'enum(en,de,fr,es,ja)',
    options: ['optional()', 'default(en)'],
    samples: ['de', 'en', 'ja'],
    about: 'language',
  },
  {
    key: 'fields',
    primitive: 'array()',
    options: ['optional()'],
    samples: [
      ['name', 'id'],
      ['id', 'price', 'updatedAt'],
    ],
    about: 'field selection',
  },
  {
    key: 'ids',
    primitive: 'array()',
    options: [],
    samples: [['bitcoin', 'ethereum'], ['solana']],
    about: 'identifiers',
  },
  {
    key: 'minAmount',
    primitive: 'number()',
    options: ['min(0)', 'optional()'],
    samples: [100, 0.5, 25000],
    about: 'minimum amount',
  },
  {
    key: 'status',
    primitive: 'enum(open,closed,pending,all)',
    options: ['default(all)'],
    samples: ['open', 'closed', 'pending'],
    about: 'status',
  },
  {
    key: 'country',
    primitive: 'string()',
    options: ['length(2)', 'optional()'],
    samples: ['de', 'us', 'jp'],
    about: 'country code',
  },
  {
    key: 'latitude',
    primitive: 'number()',
    options: ['min(-90)', 'max(90)'],
    samples: [52.52, -33.87, 35.68],
    about: 'latitude',
  },
  {
    key: 'longitude',
    primitive: 'number()',
    options: ['min(-180)', 'max(180)'],
    samples: [13.41, 151.21, 139.69],
    about: 'longitude',
  },
];

export const BODY_PARAMS: ParamTemplate[] = [
  {
    key: 'name',
    primitive: 'string()',
    options: ['min(1)', 'max(120)'],
    samples: ['Quarterly export', 'Berlin sensors', 'Treasury wallet'],
    about: 'name',
  },
  {
    key: 'email',
    primitive: 'string()',
    options: ['min(5)', 'max(254)'],
    samples: ['ops@example.org', 'data@example.com'],
    about: 'contact e-mail',
  },
  {
    key: 'amount',
    primitive: 'number()',
    options: ['min(0)', 'max(1000000)'],
    samples: [250, 19.99, 1000000],
    about: 'amount',
  },
  {
    key: 'quantity',
    primitive: 'number()',
    options: ['min(1)', 'max(1000)', 'default(1)'],
    samples: [3, 1, 12],
    about: 'quantity',
  },
  {
    key: 'items',
    primitive: 'array()',
    options: [],
    samples: [['sku-1001', 'sku-1002'], ['sku-2040']],
    about: 'items',
  },
  {
    key: 'metadata',
    primitive: 'object()',
    options: ['optional()'],
    samples: [
      { source: 'bench', batch: 7 },
      { team: 'data', tags: ['a', 'b'] },
    ],
    about: 'metadata',
  },
  {
    key: 'notes',
    primitive: 'string()',
    options: ['max(500)', 'optional()'],
    samples: ['Deliver before noon.', 'Generated by the nightly job.'],
    about: 'notes',
  },
  {
    key: 'priority',
    primitive: 'enum(low,normal,high)',
    options: ['default(normal)'],
    samples: ['high', 'low', 'normal'],
    about: 'priority',
  },
  {
    key: 'dryRun',
    primitive: 'boolean()',
    options: ['optional()', 'default(false)'],
    samples: [true, false],
    about: 'dry-run flag',
  },
  {
    key: 'callbackUrl',
    primitive: 'string()',
    options: ['min(8)', 'max(2048)', 'optional()'],
    samples: ['https://hooks.example.org/bench', 'https://example.com/callback'],
    about: 'callback URL',
  },
  {
    key: 'filter',
    primitive: 'object()',
    options: [],
    samples: [{ status: 'open' }, { minVolume: 1000, chain: 'base' }],
    about: 'filter',
  },
  {
    key: 'labels',
    primitive: 'array()',
    options: ['optional()'],
    samples: [['urgent'], ['finance', 'q1']],
    about: 'labels',
  },
];
