/**
 * The layering rules of CONTRIBUTING.md, checked by `npm run lint:deps` (part of `npm test`). Type-only imports
 * count: a transport that names a storage type depends on storage all the same.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const SQL = '(^|/)node_modules/(kysely|better-sqlite3|pg|pg-[^/]+|sqlite-vec)/';
const HTTP_FRAMEWORK = '(^|/)node_modules/(fastify|@fastify/[^/]+|fastify-[^/]+)/';

module.exports = {
  forbidden: [
    {
      name: 'transport-not-to-storage',
      comment:
        'src/http and src/mcp reach data through src/core only: one core operation per use case, shared by every transport.',
      severity: 'error',
      from: { path: '^src/(http|mcp)/' },
      to: { path: ['^src/storage/', SQL] },
    },
    {
      name: 'mcp-not-through-routes',
      comment:
        'MCP tools are shells of their own over core calls; they share the API schemas (src/http/schemas) and never a route or its handler.',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/http/routes/' },
    },
    {
      name: 'http-not-to-mcp',
      comment: 'The HTTP API knows nothing of MCP: src/app.ts mounts the MCP endpoint beside it.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'core-not-to-transport',
      comment: 'src/core knows no transport: no src/http or src/mcp, no Fastify types (core has its own Logger).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: ['^src/(http|mcp)/', HTTP_FRAMEWORK] },
    },
    {
      name: 'core-not-to-sql',
      comment: 'src/core holds no SQL: queries live in src/storage behind the Storage interface.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: SQL },
    },
    {
      name: 'storage-not-to-core',
      comment: 'src/storage stores and queries; behaviour (src/core) sits above it and is never called from below.',
      severity: 'error',
      from: { path: '^src/storage/' },
      to: { path: '^src/core/' },
    },
    {
      name: 'schemas-are-leaves',
      comment: 'src/schemas declares each record once (TypeBox only); every layer reads it, it reads none of them.',
      severity: 'error',
      from: { path: '^src/schemas/' },
      to: { path: '^src/(?!schemas/)' },
    },
    {
      name: 'text-rules-are-leaves',
      comment:
        'src/text holds how text is read as words, shared by storage, core and providers; it reads none of them.',
      severity: 'error',
      from: { path: '^src/text/' },
      to: { path: '^src/(?!text/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
