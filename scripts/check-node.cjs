// Stops, saying how to get a newer Node, when the running one is older than the service and the
// svc command need (package.json `engines`), before anything that needs Node 24 is loaded (on Node
// 20, `npm start` died with `TypeError: enableCompileCache is not a function`). A script, not a
// module, using nothing newer than Node 6 has. Used by the npm scripts
// (`node -r ./scripts/check-node.cjs <entry>`) and inlined by scripts/build.mjs at the top of
// dist/main.js and dist/cli.js (the installed svc). test/build/old-node.test.ts runs each entry on
// an older Node.
(function checkNode() {
  const NEEDED = 24;
  const found = process.versions.node;
  if (Number(found.split(".")[0]) >= NEEDED) return;
  process.stderr.write(
    `site-builder-service (svc) needs Node ${NEEDED} or newer (found ${found}).\n` +
      `Get it from https://nodejs.org/ or with a version manager (nvm install ${NEEDED}, fnm install ${NEEDED}).\n` +
      "In the service's checkout, `. scripts/ensure-node.sh` fetches it into .tmp/node and puts it first on PATH (README.md, Quick start).\n",
  );
  process.exit(1);
})();
