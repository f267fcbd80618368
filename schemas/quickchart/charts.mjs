// QuickChart: Chart.js charts and QR codes rendered as PNG images. Public API, no key.
// Covers POST routes with JSON bodies (an object() parameter), image/png output and fixed values.
export const main = {
    namespace: 'quickchart',
    name: 'QuickChartImages',
    description: 'Render Chart.js chart configurations and QR codes as PNG images, or store a chart and get a short shareable URL, with the open QuickChart service.',
    version: '2.0.0',
    docs: [
        'https://quickchart.io/documentation/',
        'https://quickchart.io/documentation/qr-codes/'
    ],
    tags: ['charts', 'images', 'qr-code'],
    root: 'https://quickchart.io',
    headers: {
        'content-type': 'application/json'
    },
    routes: {
        renderChart: {
            method: 'POST',
            path: '/chart',
            description: 'Render a Chart.js configuration (type, data, options) to a PNG image. The image is returned base64-encoded.',
            parameters: [
                { position: { key: 'chart', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'object()', options: [] } },
                { position: { key: 'width', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'number()', options: ['min(50)', 'max(3000)', 'default(500)'] } },
                { position: { key: 'height', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'number()', options: ['min(50)', 'max(3000)', 'default(300)'] } },
                { position: { key: 'devicePixelRatio', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'enum(1,2)', options: ['default(2)'] } },
                { position: { key: 'backgroundColor', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'string()', options: ['max(32)', 'optional()', 'default(transparent)'] } },
                { position: { key: 'version', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'enum(2,3,4)', options: ['optional()'] } },
                { position: { key: 'format', value: 'png', location: 'body' }, z: { primitive: 'enum(png,webp,jpg,svg,pdf)', options: [] } }
            ],
            output: {
                mimeType: 'image/png',
                schema: { type: 'string', format: 'base64', description: 'The rendered chart as a base64-encoded PNG.' }
            },
            tests: [
                { _description: 'Bar chart of quarterly revenue, Chart.js 3 on a retina canvas', chart: { type: 'bar', data: { labels: ['Q1', 'Q2', 'Q3', 'Q4'], datasets: [{ label: 'Revenue', data: [50, 60, 70, 180] }] } }, devicePixelRatio: 2, version: '3' },
                { _description: 'Small line chart on white, Chart.js 4, single pixel ratio', chart: { type: 'line', data: { labels: ['Mon', 'Tue', 'Wed'], datasets: [{ label: 'Visitors', data: [12, 19, 3] }] } }, width: 300, height: 150, devicePixelRatio: 1, backgroundColor: 'white', version: '4' }
            ]
        },
        createChartUrl: {
            method: 'POST',
            path: '/chart/create',
            description: 'Store a Chart.js configuration on QuickChart and return a short URL that renders it. Useful for sharing a chart as a link.',
            parameters: [
                { position: { key: 'chart', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'object()', options: [] } },
                { position: { key: 'width', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'number()', options: ['min(50)', 'max(3000)', 'optional()'] } },
                { position: { key: 'height', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'number()', options: ['min(50)', 'max(3000)', 'optional()'] } }
            ],
            output: {
                mimeType: 'application/json',
                schema: {
                    type: 'object',
                    properties: {
                        success: { type: 'boolean' },
                        url: { type: 'string', format: 'uri', description: 'Short URL that renders the stored chart.' }
                    }
                }
            },
            tests: [
                { _description: 'Store a pie chart', chart: { type: 'pie', data: { labels: ['Yes', 'No'], datasets: [{ data: [70, 30] }] } } },
                { _description: 'Store a wide doughnut chart', chart: { type: 'doughnut', data: { labels: ['A', 'B', 'C'], datasets: [{ data: [1, 2, 3] }] } }, width: 800, height: 400 }
            ]
        },
        getQrCode: {
            method: 'GET',
            path: '/qr',
            description: 'Encode text or a URL as a QR code PNG with configurable size, margin, colours (hex without #) and error-correction level.',
            parameters: [
                { position: { key: 'text', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['min(1)', 'max(2000)'] } },
                { position: { key: 'size', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(50)', 'max(1000)', 'default(150)'] } },
                { position: { key: 'margin', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(0)', 'max(20)', 'default(4)'] } },
                { position: { key: 'dark', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['length(6)', 'optional()'] } },
                { position: { key: 'light', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['length(6)', 'optional()'] } },
                { position: { key: 'ecLevel', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(L,M,Q,H)', options: ['default(M)'] } },
                { position: { key: 'format', value: 'png', location: 'query' }, z: { primitive: 'enum(png,svg)', options: [] } }
            ],
            output: {
                mimeType: 'image/png',
                schema: { type: 'string', format: 'base64', description: 'The QR code as a base64-encoded PNG.' }
            },
            tests: [
                { _description: 'QR code for a URL with low error correction', text: 'https://open-meteo.com', ecLevel: 'L' },
                { _description: 'Large navy QR code with high error correction', text: 'flowguard', size: 400, margin: 2, dark: '1f2a44', light: 'ffffff', ecLevel: 'H' }
            ]
        }
    }
}
