// Open-Meteo weather forecasts. Public API, no key, no handlers: every route goes straight to HTTP.
export const main = {
    namespace: 'openmeteo',
    name: 'OpenMeteoForecast',
    description: 'Hourly and daily weather forecasts and terrain elevation for any coordinate on Earth from the free Open-Meteo API.',
    version: '2.0.0',
    docs: [
        'https://open-meteo.com/en/docs',
        'https://open-meteo.com/en/docs/elevation-api'
    ],
    tags: ['weather', 'forecast', 'geo'],
    root: 'https://api.open-meteo.com',
    routes: {
        getForecast: {
            method: 'GET',
            path: '/v1/forecast',
            description: 'Weather forecast for a coordinate using the best available model mix. Choose current, hourly and daily variables such as temperature_2m, precipitation or wind_speed_10m.',
            parameters: [
                { position: { key: 'latitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(-90)', 'max(90)'] } },
                { position: { key: 'longitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(-180)', 'max(180)'] } },
                { position: { key: 'current', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: ['optional()'] } },
                { position: { key: 'hourly', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: ['optional()'] } },
                { position: { key: 'daily', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: ['optional()'] } },
                { position: { key: 'timezone', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['min(1)', 'max(64)', 'optional()', 'default(auto)'] } },
                { position: { key: 'timeformat', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(iso8601,unixtime)', options: ['optional()', 'default(iso8601)'] } },
                { position: { key: 'format', value: 'json', location: 'query' }, z: { primitive: 'enum(json,csv,xlsx)', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        latitude: { type: 'number', description: 'Latitude of the grid cell actually used.' },
                        longitude: { type: 'number', description: 'Longitude of the grid cell actually used.' },
                        elevation: { type: 'number', description: 'Elevation in metres used for statistical downscaling.' },
                        timezone: { type: 'string' },
                        utc_offset_seconds: { type: 'number' },
                        current: { type: 'object', nullable: true, description: 'Values of the requested current variables, keyed by variable name.' },
                        hourly_units: { type: 'object', nullable: true },
                        hourly: {
                            type: 'object',
                            nullable: true,
                            properties: {
                                time: { type: 'array', items: { type: 'string', format: 'date-time' } }
                            }
                        },
                        daily: {
                            type: 'object',
                            nullable: true,
                            properties: {
                                time: { type: 'array', items: { type: 'string' } }
                            }
                        }
                    }
                }
            },
            tests: [
                { _description: 'Current temperature and wind in Berlin', latitude: 52.52, longitude: 13.41, current: ['temperature_2m', 'wind_speed_10m'] },
                { _description: 'Hourly precipitation for Tokyo as unix timestamps', latitude: 35.6895, longitude: 139.6917, hourly: ['precipitation', 'temperature_2m'], timezone: 'Asia/Tokyo', timeformat: 'unixtime' },
                { _description: 'Daily extremes for Buenos Aires (southern and western hemisphere)', latitude: -34.61, longitude: -58.38, daily: ['temperature_2m_max', 'temperature_2m_min'], timeformat: 'iso8601' }
            ]
        },
        getModelForecast: {
            method: 'GET',
            path: '/v1/{{model}}',
            description: 'Forecast from one national weather model (DWD ICON, NOAA GFS, ECMWF IFS, Meteo-France, JMA, MET Norway, GEM) instead of the automatic model mix.',
            parameters: [
                { position: { key: 'model', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'enum(dwd-icon,gfs,ecmwf,meteofrance,jma,metno,gem)', options: [] } },
                { position: { key: 'latitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(-90)', 'max(90)'] } },
                { position: { key: 'longitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(-180)', 'max(180)'] } },
                { position: { key: 'hourly', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: [] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        latitude: { type: 'number' },
                        longitude: { type: 'number' },
                        generationtime_ms: { type: 'number' },
                        hourly_units: { type: 'object' },
                        hourly: {
                            type: 'object',
                            properties: {
                                time: { type: 'array', items: { type: 'string', format: 'date-time' } }
                            }
                        }
                    }
                }
            },
            tests: [
                { _description: 'DWD ICON temperature for Munich', model: 'dwd-icon', latitude: 48.14, longitude: 11.58, hourly: ['temperature_2m'] },
                { _description: 'NOAA GFS cloud cover for New York', model: 'gfs', latitude: 40.71, longitude: -74.01, hourly: ['cloud_cover', 'temperature_2m'] }
            ]
        },
        getElevation: {
            method: 'GET',
            path: '/v1/elevation',
            description: 'Terrain elevation in metres above sea level for a coordinate, from the Copernicus 90 m digital elevation model.',
            parameters: [
                { position: { key: 'latitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(-90)', 'max(90)'] } },
                { position: { key: 'longitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(-180)', 'max(180)'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        elevation: { type: 'array', items: { type: 'number' }, description: 'One elevation per requested coordinate.' }
                    }
                }
            },
            tests: [
                { _description: 'Elevation of Zermatt', latitude: 46.02, longitude: 7.75 }
            ]
        }
    }
}
