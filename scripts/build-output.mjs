// How a build's files reach their folder (scripts/build.mjs for dist/, scripts/admin-build.mjs for
// the admin's): a file whose bytes did not change is not rewritten, and a changed one is replaced in
// one step (rename), so a build while another test run starts dist/main.js, or a service reads the
// admin's files, leaves every file whole. Files are written in the order given (the admin's
// index.html after the assets it names). Whatever else is in the folder, at any depth (an older
// build's output), is removed afterwards; a `.tmp` file is another build's, about to be renamed.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";

/**
 * Writes `files` ({path, contents}, paths inside `dir`) and removes everything else under `dir`.
 * `executable(path)`: whether a file is written with mode 0755.
 */
export function writeOutput(dir, files, executable = () => false) {
  const built = new Set(files.map((file) => resolve(file.path)));
  for (const file of files) {
    let old = null;
    try {
      old = readFileSync(file.path);
    } catch {
      // not built before
    }
    if (old && Buffer.compare(old, file.contents) === 0) continue;
    mkdirSync(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents, { mode: executable(file.path) ? 0o755 : 0o644 });
    renameSync(temporary, file.path);
  }
  removeUnbuilt(resolve(dir), built);
}

function removeUnbuilt(dir, built) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name.endsWith(".tmp")) continue;
    const holdsBuilt = entry.isDirectory() && [...built].some((file) => file.startsWith(path + sep));
    if (holdsBuilt) removeUnbuilt(path, built);
    else if (!built.has(path)) rmSync(path, { recursive: true, force: true });
  }
}
