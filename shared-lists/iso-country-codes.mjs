// A subset of ISO 3166-1 country codes with their UN region.
// Pure data: read as a literal, never executed.
export const list = {
    meta: {
        name: 'isoCountryCodes',
        version: '2.0.0',
        description: 'ISO 3166-1 country codes (alpha-2 in lowercase, alpha-3 in uppercase) with English short name and region.',
        fields: [
            { key: 'alpha2', type: 'string', description: 'ISO 3166-1 alpha-2 code, lowercase.' },
            { key: 'alpha3', type: 'string', description: 'ISO 3166-1 alpha-3 code, uppercase.' },
            { key: 'name', type: 'string', description: 'English short name of the country.' },
            { key: 'region', type: 'string', description: 'UN geoscheme region (Africa, Americas, Asia, Europe, Oceania).' },
            { key: 'isEuMember', type: 'boolean', description: 'Member state of the European Union.', optional: true }
        ]
    },
    entries: [
        { alpha2: 'ar', alpha3: 'ARG', name: 'Argentina', region: 'Americas' },
        { alpha2: 'at', alpha3: 'AUT', name: 'Austria', region: 'Europe', isEuMember: true },
        { alpha2: 'au', alpha3: 'AUS', name: 'Australia', region: 'Oceania' },
        { alpha2: 'br', alpha3: 'BRA', name: 'Brazil', region: 'Americas' },
        { alpha2: 'ca', alpha3: 'CAN', name: 'Canada', region: 'Americas' },
        { alpha2: 'ch', alpha3: 'CHE', name: 'Switzerland', region: 'Europe', isEuMember: false },
        { alpha2: 'cn', alpha3: 'CHN', name: 'China', region: 'Asia' },
        { alpha2: 'de', alpha3: 'DEU', name: 'Germany', region: 'Europe', isEuMember: true },
        { alpha2: 'eg', alpha3: 'EGY', name: 'Egypt', region: 'Africa' },
        { alpha2: 'es', alpha3: 'ESP', name: 'Spain', region: 'Europe', isEuMember: true },
        { alpha2: 'fr', alpha3: 'FRA', name: 'France', region: 'Europe', isEuMember: true },
        { alpha2: 'gb', alpha3: 'GBR', name: 'United Kingdom', region: 'Europe', isEuMember: false },
        { alpha2: 'in', alpha3: 'IND', name: 'India', region: 'Asia' },
        { alpha2: 'it', alpha3: 'ITA', name: 'Italy', region: 'Europe', isEuMember: true },
        { alpha2: 'jp', alpha3: 'JPN', name: 'Japan', region: 'Asia' },
        { alpha2: 'kr', alpha3: 'KOR', name: 'South Korea', region: 'Asia' },
        { alpha2: 'mx', alpha3: 'MEX', name: 'Mexico', region: 'Americas' },
        { alpha2: 'ng', alpha3: 'NGA', name: 'Nigeria', region: 'Africa' },
        { alpha2: 'nl', alpha3: 'NLD', name: 'Netherlands', region: 'Europe', isEuMember: true },
        { alpha2: 'nz', alpha3: 'NZL', name: 'New Zealand', region: 'Oceania' },
        { alpha2: 'us', alpha3: 'USA', name: 'United States', region: 'Americas' },
        { alpha2: 'za', alpha3: 'ZAF', name: 'South Africa', region: 'Africa' }
    ]
}
