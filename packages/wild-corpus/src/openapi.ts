/** The OpenAPI document the SPAs of the corpus (swagger-ui, redoc) render, served by the corpus server. */
export const corpusOpenApi = {
  openapi: '3.0.3',
  info: {
    title: 'Inventory API',
    version: '1.4.0',
    description: 'Items, orders and users of a small shop. Served locally by the wild corpus.',
  },
  servers: [{ url: '/api' }],
  tags: [
    { name: 'items', description: 'Items for sale' },
    { name: 'orders', description: 'Orders placed by customers' },
    { name: 'users', description: 'Accounts' },
  ],
  paths: {
    '/items': {
      get: {
        tags: ['items'],
        summary: 'List items',
        parameters: [
          { name: 'q', in: 'query', description: 'Search text', schema: { type: 'string' } },
          { name: 'limit', in: 'query', description: 'Page size', schema: { type: 'integer', default: 20 } },
          {
            name: 'sort',
            in: 'query',
            description: 'Sort order',
            schema: { type: 'string', enum: ['name', 'price', 'created'] },
          },
        ],
        responses: {
          '200': {
            description: 'Items',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Items' } } },
          },
        },
      },
      post: {
        tags: ['items'],
        summary: 'Create an item',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } },
        responses: { '201': { description: 'Created' } },
      },
    },
    '/items/{id}': {
      get: {
        tags: ['items'],
        summary: 'Get one item',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'The item' }, '404': { description: 'No such item' } },
      },
      delete: {
        tags: ['items'],
        summary: 'Delete an item',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '204': { description: 'Deleted' } },
      },
    },
    '/orders': {
      get: { tags: ['orders'], summary: 'List orders', responses: { '200': { description: 'Orders' } } },
      post: { tags: ['orders'], summary: 'Place an order', responses: { '201': { description: 'Placed' } } },
    },
    '/users/login': {
      post: {
        tags: ['users'],
        summary: 'Log a user in',
        parameters: [
          { name: 'username', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'password', in: 'query', required: true, schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'Logged in' } },
      },
    },
  },
  components: {
    schemas: {
      Item: {
        type: 'object',
        required: ['name'],
        properties: {
          id: { type: 'integer' },
          name: { type: 'string', example: 'Iron sword' },
          price: { type: 'number', example: 120 },
          category: { type: 'string', enum: ['weapon', 'armor', 'potion'] },
        },
      },
      Items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
    },
  },
}

export const swaggerInitializer = `window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: '/__corpus/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: false,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  })
})
`

export const redocPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Inventory API – Redoc</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="/__corpus/openapi.json" hide-download-button></redoc>
<script src="bundles/redoc.standalone.js"></script>
</body>
</html>
`
