// Page paths from input: a child's path under its parent, and the segments of a path as given.

export function childPath(parentPath: string, slug: string): string {
  return `${parentPath}/${slug}`;
}

/**
 * The segments of a path given as input: a full address is reduced to its path, query and
 * fragment are dropped, empty segments vanish, segments are lower-cased and percent-decoded.
 */
export function pathSegments(input: string): string[] {
  let path = input.trim();
  const full = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(.*)$/i.exec(path);
  if (full) path = full[1];
  path = path.replace(/[?#].*$/, "");
  return path
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment).trim().toLowerCase();
      } catch {
        return segment.trim().toLowerCase();
      }
    })
    .filter((segment) => segment !== "");
}
