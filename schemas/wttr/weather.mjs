// wttr.in console weather. Public, no key. One route answers text/plain (the one-line format),
// the other asks for JSON (format j1) and condenses it in a postRequest handler.
export const main = {
    namespace: 'wttr',
    name: 'WttrWeather',
    description: 'Current weather and a three-day outlook for a city, airport code or landmark from wttr.in, as a one-line summary or as structured data.',
    version: '2.0.0',
    docs: [
        'https://github.com/chubin/wttr.in#one-line-output',
        'https://github.com/chubin/wttr.in#json-output'
    ],
    tags: ['weather', 'text'],
    root: 'https://wttr.in',
    routes: {
        getWeatherLine: {
            method: 'GET',
            path: '/{{location}}',
            description: 'One line of plain text with the condition symbol, temperature and wind for a location, e.g. "Berlin: ⛅️ +12°C ↗11km/h".',
            parameters: [
                { position: { key: 'location', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(2)', 'max(80)'] } },
                { position: { key: 'lang', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(en,de,fr,es,it,nl,pt,ja)', options: ['optional()', 'default(en)'] } },
                { position: { key: 'format', value: '3', location: 'query' }, z: { primitive: 'string()', options: [] } }
            ],
            output: {
                mimeType: 'text/plain',
                schema: { type: 'string', description: 'A single line such as "Paris: ☀️ +18°C".' }
            },
            tests: [
                { _description: 'Berlin in English', location: 'Berlin' },
                { _description: 'Paris in French', location: 'Paris', lang: 'fr' },
                { _description: 'Airport code, in German', location: 'MUC', lang: 'de' }
            ]
        },
        getWeatherReport: {
            method: 'GET',
            path: '/{{location}}',
            description: 'Current conditions and a three-day forecast (min/max temperature, sun hours) for a location as structured data.',
            parameters: [
                { position: { key: 'location', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(2)', 'max(80)'] } },
                { position: { key: 'format', value: 'j1', location: 'query' }, z: { primitive: 'string()', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        area: { type: 'string', nullable: true },
                        country: { type: 'string', nullable: true },
                        current: {
                            type: 'object',
                            properties: {
                                temperatureC: { type: 'number' },
                                feelsLikeC: { type: 'number' },
                                humidity: { type: 'number' },
                                windKmph: { type: 'number' },
                                description: { type: 'string' }
                            }
                        },
                        days: {
                            type: 'array',
                            items: {
                                type: 'object',
                                properties: {
                                    date: { type: 'string' },
                                    minTempC: { type: 'number' },
                                    maxTempC: { type: 'number' },
                                    sunHours: { type: 'number' }
                                }
                            }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Report for Zurich', location: 'Zurich' },
                { _description: 'Report for a landmark', location: '~Eiffel+Tower' }
            ]
        }
    }
}

export const handlers = ( { sharedLists, libraries } ) => ( {
    getWeatherReport: {
        postRequest: async ( { response, struct, payload } ) => {
            const first = ( rows ) => ( Array.isArray( rows ) && rows.length > 0 ? rows[ 0 ] : {} )
            const text = ( rows ) => first( rows ).value ?? null
            const now = first( response?.current_condition )
            const area = first( response?.nearest_area )
            const days = ( Array.isArray( response?.weather ) ? response.weather : [] ).map( ( day ) => ( {
                date: day.date,
                minTempC: Number( day.mintempC ),
                maxTempC: Number( day.maxtempC ),
                sunHours: Number( day.sunHour )
            } ) )
            return {
                response: {
                    area: text( area.areaName ),
                    country: text( area.country ),
                    current: {
                        temperatureC: Number( now.temp_C ),
                        feelsLikeC: Number( now.FeelsLikeC ),
                        humidity: Number( now.humidity ),
                        windKmph: Number( now.windspeedKmph ),
                        description: text( now.weatherDesc ) ?? ''
                    },
                    days
                }
            }
        }
    }
} )
