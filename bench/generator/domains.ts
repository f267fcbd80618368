// The API domains a generated schema is drawn from, with their resources and fields, and the verbs
// its routes are named with.

export interface Domain {
  word: string;
  title: string;
  what: string;
  resources: string[];
  tags: string[];
  fields: string[];
  /** Keys of INSERT_PARAMS that make sense as path segments of this domain. */
  inserts: string[];
}

export const DOMAINS: Domain[] = [
  {
    word: 'weather',
    title: 'Weather',
    what: 'weather forecasts, station observations and severe-weather alerts',
    resources: ['forecasts', 'stations', 'observations', 'alerts', 'warnings', 'radar'],
    tags: ['weather', 'forecast'],
    fields: ['temperature', 'humidity', 'windSpeed', 'pressure', 'condition'],
    inserts: ['stationId', 'region', 'year', 'slug'],
  },
  {
    word: 'markets',
    title: 'Markets',
    what: 'prices, order books and historical candles of traded assets',
    resources: ['tickers', 'candles', 'trades', 'orderbooks', 'assets', 'exchanges'],
    tags: ['finance', 'market-data'],
    fields: ['price', 'volume', 'change24h', 'marketCap', 'symbol'],
    inserts: ['symbol', 'id', 'region', 'year'],
  },
  {
    word: 'transit',
    title: 'Transit',
    what: 'public transport stops, departures and disruptions',
    resources: ['stops', 'departures', 'lines', 'disruptions', 'journeys'],
    tags: ['transport', 'mobility'],
    fields: ['line', 'direction', 'plannedTime', 'delayMinutes', 'platform'],
    inserts: ['stationId', 'slug', 'region', 'id'],
  },
  {
    word: 'news',
    title: 'News',
    what: 'news articles, sources and trending topics',
    resources: ['articles', 'sources', 'topics', 'headlines'],
    tags: ['news', 'media'],
    fields: ['title', 'url', 'publishedAt', 'source', 'summary'],
    inserts: ['category', 'slug', 'id', 'region'],
  },
  {
    word: 'energy',
    title: 'Energy',
    what: 'electricity generation, grid load and day-ahead prices',
    resources: ['generation', 'load', 'prices', 'plants', 'emissions'],
    tags: ['energy', 'open-data'],
    fields: ['megawatts', 'source', 'timestamp', 'pricePerMwh', 'zone'],
    inserts: ['region', 'year', 'stationId', 'id'],
  },
  {
    word: 'books',
    title: 'Books',
    what: 'book metadata, authors and library availability',
    resources: ['works', 'authors', 'editions', 'subjects', 'loans'],
    tags: ['books', 'library'],
    fields: ['title', 'author', 'isbn', 'publishedYear', 'pages'],
    inserts: ['id', 'slug', 'year', 'category'],
  },
  {
    word: 'chain',
    title: 'Chain',
    what: 'blocks, transactions, token transfers and balances on EVM networks',
    resources: ['blocks', 'transactions', 'transfers', 'balances', 'tokens', 'contracts'],
    tags: ['blockchain', 'evm'],
    fields: ['hash', 'blockNumber', 'from', 'to', 'value'],
    inserts: ['address', 'network', 'id', 'accountId'],
  },
  {
    word: 'health',
    title: 'Health',
    what: 'hospital capacity, vaccination figures and air quality',
    resources: ['hospitals', 'vaccinations', 'airquality', 'cases'],
    tags: ['health', 'statistics'],
    fields: ['region', 'date', 'count', 'rate', 'capacity'],
    inserts: ['region', 'year', 'slug', 'id'],
  },
  {
    word: 'sports',
    title: 'Sports',
    what: 'fixtures, results, standings and player statistics',
    resources: ['fixtures', 'results', 'standings', 'players', 'teams'],
    tags: ['sports', 'statistics'],
    fields: ['homeTeam', 'awayTeam', 'score', 'kickoff', 'venue'],
    inserts: ['id', 'slug', 'year', 'region'],
  },
  {
    word: 'geo',
    title: 'Geo',
    what: 'geocoding, reverse geocoding and points of interest',
    resources: ['places', 'geocode', 'boundaries', 'pois', 'routes'],
    tags: ['geo', 'maps'],
    fields: ['name', 'lat', 'lon', 'countryCode', 'population'],
    inserts: ['region', 'slug', 'id', 'accountId'],
  },
];

export const GET_VERBS = ['get', 'list', 'search', 'find', 'lookup'];
export const POST_VERBS = ['create', 'submit', 'calculate', 'quote', 'register'];
