// The layer rules of docs/architecture.md, checked by dependency-cruiser in `npm test`
// (test/architecture.test.ts). Layers are listed bottom to top: a module may import a module of a
// lower layer or of its own folder, never one above or beside it; type imports count too.
// Each layer gets one rule named `layers/<layer>`, so a back import fails with the rule's name and
// what that layer may use.

/** Bottom to top. `path` matches the layer's modules (paths relative to the repository). */
const LAYERS = [
  {
    name: "base",
    path: "^src/(errors|warnings|clock|tokens|actor|fair-turns|serial-turns|cpu-permits)\\.ts$",
    owns: "the error catalogue, warnings, the clock, the token format, fair turns between sites and the cores for work off the service's thread",
  },
  { name: "config", path: "^src/config\\.ts$", owns: "typed configuration" },
  { name: "store", path: "^src/store/", owns: "the database of both dialects, migrations, row types" },
  { name: "blobs", path: "^src/blobs/", owns: "the blob store of media bytes: file system or S3-compatible" },
  {
    name: "backup",
    path: "^src/backup/",
    owns: "svc backup and svc restore: the SQLite data directory copied into one file and back, for the svc command only",
  },
  { name: "markup", path: "^src/markup/", owns: "the pure frame-markup compiler" },
  {
    name: "site",
    path: "^src/site/",
    owns: "a site's facts, read-only: rows, settings, languages, addresses, callers",
  },
  {
    name: "quotas",
    path: "^src/quotas/",
    owns: "per-site quotas: limits, use counters kept by every counted write, requireRoom",
  },
  {
    name: "redirects",
    path: "^src/redirects/",
    owns: "redirects of a site: made by hand or when a page's address changes; chains collapsed",
  },
  {
    name: "revisions",
    path: "^src/revisions/",
    owns: "revisions of every written object and the trash of deleted ones",
  },
  {
    name: "search",
    path: "^src/search/",
    owns: "site search: the index of findable pages kept in each write's transaction, and its query",
  },
  {
    name: "write",
    path: "^src/write/",
    owns: "the write path: what a write changed and wrote, the service context, the write pipeline",
  },
  {
    name: "effects",
    path: "^src/effects/",
    owns: "what a change affects (pure), the frames' dependency index, a dry run's plan",
  },
  { name: "output", path: "^src/output/", owns: "the engine's kept output (static copies, frame bakes) and its bytes" },
  { name: "http", path: "^src/http/", owns: "HTTP plumbing: auth, limits, site scope, envelopes" },
  // The features, in their one written order.
  { name: "network", path: "^src/network/", owns: "sites, users, tokens, memberships" },
  { name: "events", path: "^src/events/", owns: "events: the audit log and the change feed" },
  { name: "webhooks", path: "^src/webhooks/", owns: "webhooks: signed, retried deliveries of events" },
  { name: "frames", path: "^src/frames/", owns: "frames" },
  { name: "pages", path: "^src/pages/", owns: "pages, translations, frame assignment" },
  { name: "settings", path: "^src/settings/", owns: "settings and languages (writes)" },
  { name: "menus", path: "^src/menus/", owns: "menus, items, locations" },
  { name: "data", path: "^src/data/", owns: "data sets and sources" },
  { name: "strings", path: "^src/strings/", owns: "texts per language that frames print with t.<key>" },
  { name: "media", path: "^src/media/", owns: "media: uploads, records, variants, use in frames" },
  { name: "styles", path: "^src/styles/", owns: "stylesheets: checked, bundled, served copies" },
  { name: "seo", path: "^src/seo/", owns: "SEO: site defaults, page SEO calls, redirects API, sitemap and robots.txt" },
  {
    name: "sidebars",
    path: "^src/sidebars/",
    owns: "documentation sidebars: trees per language, written or generated from a root page",
  },
  {
    name: "forms",
    path: "^src/forms/",
    owns: "forms: declared per site, printed by svc/form, submissions checked, kept and e-mailed",
  },
  {
    name: "preview",
    path: "^src/preview/",
    owns: "previews of unsaved changes (rendered in a rolled-back transaction) and preview links",
  },
  { name: "history", path: "^src/history/", owns: "the revision, diff, restore and trash calls of every kind" },
  {
    name: "bundles",
    path: "^src/bundles/",
    owns: "site bundles: a site exported as one .tar.gz and imported, through every feature's own services",
  },
  { name: "cache", path: "^src/cache/", owns: "POST /cache/flush" },
  {
    name: "mcp",
    path: "^src/mcp/",
    owns: "the MCP server: tools made of the API's own REST calls, sent in-process (POST /api/mcp)",
  },
  // The engine, above the features: it reads their tables through their own modules.
  { name: "publish", path: "^src/publish/", owns: "the publish engine: runs, renders, caches, invalidation" },
  { name: "public", path: "^src/public/", owns: "the public site" },
  { name: "admin", path: "^src/admin/", owns: "the admin's host: its built front end served, /admin there" },
  { name: "app-deps", path: "^src/app-deps\\.ts$", owns: "what the app is built from; features wired into the engine" },
  { name: "app", path: "^src/app(-background)?\\.ts$", owns: "the Fastify instance and the work it starts" },
  {
    name: "main",
    path: "^src/(main|server)\\.ts$",
    owns: "the process: server.ts, and main.ts, the entry of the build that runs it",
  },
];

/**
 * The typed client (src/client/), beside the layers rather than in them: it talks to the service
 * over HTTP, so it imports nothing of src/ and nothing of src/ imports it (the two rules below).
 */
const CLIENT = "^src/client/";

/**
 * The `svc` command-line tool (src/cli/), above the client: it reaches the service only through the
 * typed client over HTTP, so it imports its own folder, src/client/ and packages, and nothing of src/
 * imports it (docs/cli.md). One exception: `svc backup` and `svc restore` work on this machine's
 * data directory, not through the service, and use src/backup/ for it (docs/backups.md).
 */
const CLI = "^src/cli/";

/** The backup layer: used by the svc command only, never by the service (rule layers/backup-apart). */
const BACKUP = "^src/backup/";

const layerRules = LAYERS.map((layer, index) => {
  const below = LAYERS.slice(0, index);
  return {
    name: `layers/${layer.name}`,
    severity: "error",
    comment:
      `${layer.name} (${layer.owns}) may import only its own folder and the layers below it: ` +
      `${below.map((l) => l.name).join(", ") || "none"}. See docs/architecture.md.`,
    from: { path: layer.path },
    to: { path: "^src/", pathNot: [...below.map((l) => l.path), layer.path] },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "layers/unplaced",
      severity: "error",
      comment:
        "Every module under src/ belongs to a layer of .dependency-cruiser.cjs (and docs/architecture.md): add a new folder to the list where it stands.",
      from: { path: "^src/", pathNot: [...LAYERS.map((l) => l.path), CLIENT, CLI] },
      to: {},
    },
    {
      name: "layers/client",
      severity: "error",
      comment:
        "client (the typed client, src/client/: a program of its own that talks to the service over HTTP) imports only its own folder " +
        "and packages, nothing else of src/; its types come from the served OpenAPI document (npm run client:types). See docs/client.md.",
      from: { path: CLIENT },
      to: { path: "^src/", pathNot: CLIENT },
    },
    {
      name: "layers/client-apart",
      severity: "error",
      comment:
        "Nothing of the service imports the typed client (src/client/): the client is a program of its own, used in src/ only by the svc command (src/cli/). See docs/client.md.",
      from: { path: "^src/", pathNot: [CLIENT, CLI] },
      to: { path: CLIENT },
    },
    {
      name: "layers/cli",
      severity: "error",
      comment:
        "cli (the svc command, src/cli/: a program of its own above the typed client) imports only its own folder, src/client/ " +
        "and packages, nothing else of src/: every call goes through the client; only svc backup and svc restore, which work on " +
        "the local data directory, use src/backup/. See docs/cli.md and docs/backups.md.",
      from: { path: CLI },
      to: { path: "^src/", pathNot: [CLI, CLIENT, BACKUP] },
    },
    {
      name: "layers/backup-apart",
      severity: "error",
      comment:
        "Only the svc command (src/cli/) imports src/backup/: a backup is taken from outside the service, which never copies " +
        "itself. See docs/backups.md.",
      from: { path: "^src/", pathNot: [CLI, BACKUP] },
      to: { path: BACKUP },
    },
    {
      name: "layers/cli-apart",
      severity: "error",
      comment:
        "Nothing imports the svc command (src/cli/), the client included: it is the top of its own stack. See docs/cli.md.",
      from: { path: "^src/", pathNot: CLI },
      to: { path: CLI },
    },
    {
      name: "fastify-only-in-http",
      severity: "error",
      comment:
        "Only http/, route files (routes.ts, *-routes.ts) and app.ts know Fastify; services take a context and typed input.",
      from: { path: "^src/", pathNot: ["^src/http/", "routes\\.ts$", "^src/app(-background)?\\.ts$"] },
      to: { path: "(^|/)node_modules/(fastify|@fastify/)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs", ".json"] },
  },
};
