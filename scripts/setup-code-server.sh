#!/usr/bin/env bash
# Installs code-server 4.99.4 (VS Code 1.99.3, the newest that runs on Node 20) plus Debian's
# Chromium for the e2e smoke test, following shared/notes/code-server.md. code-server's own
# install scripts download prebuilt binaries, which cannot be fetched here, so we install with
# --ignore-scripts and rebuild the native modules from source against Debian's dev packages.
#
# Idempotent and safe to run concurrently: one install at a time holds a lock (flock) on the cache
# folder, builds in a temporary folder and renames it into place only after `--version` succeeds, so
# nobody ever sees (or deletes) a half-finished install; a finished one costs only a few dpkg queries.
# Logs go to stderr; the last (only) line on stdout is the path of code-server's entry.js.
set -euo pipefail

VERSION=4.99.4
# The same folder as the CLI's run environments (defaultCacheDir in server/src/engine/run/environment.ts).
CACHE="${TOOLDEF_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tooldef}"
DIR="$CACHE/code-server-$VERSION"
ENTRY="$DIR/node_modules/code-server/out/node/entry.js"
MARKER="$DIR/.installed"

log() { echo "[setup-code-server] $*" >&2; }

installed() { [[ -f "$MARKER" && -f "$ENTRY" ]]; }

mkdir -p "$CACHE"
# Everything below runs under the lock: a second caller waits for the first, then finds it installed.
exec 9>"$CACHE/code-server-$VERSION.lock"
if ! flock -n 9; then
  log "another install is under way; waiting for it (up to 15 minutes)"
  flock -w 900 9 || { log "gave up waiting for the lock $CACHE/code-server-$VERSION.lock"; exit 1; }
fi

# --- Debian packages (only what is missing; waits for apt's lock) ---
bash "$(dirname "$0")/setup-debian-packages.sh" libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev pkg-config ripgrep chromium

# --- code-server ---
if installed; then
  log "code-server $VERSION already installed in $DIR"
  echo "$ENTRY"
  exit 0
fi

# Built under a temporary name and moved into place whole; a leftover of a killed install is removed.
BUILD="$DIR.partial"
log "installing code-server $VERSION into $DIR (once; takes about 3 minutes)"
rm -rf "$BUILD" "$DIR"
mkdir -p "$BUILD"
NPM=(npm --no-audit --no-fund --loglevel=error)
(
  cd "$BUILD"
  echo '{ "private": true }' > package.json
  "${NPM[@]}" install --ignore-scripts "code-server@$VERSION"
  "${NPM[@]}" rebuild argon2

  cd node_modules/code-server/lib/vscode
  "${NPM[@]}" install --omit=dev --ignore-scripts
  # The slow part of a fresh install (~1.5 min, mostly spdlog); JOBS=max lets node-gyp's make use every core.
  JOBS=max npm_config_yes=true "${NPM[@]}" rebuild kerberos node-pty @parcel/watcher @vscode/spdlog \
    @vscode/native-watchdog @vscode/deviceid
  # VS Code's search looks for its bundled rg binary (normally downloaded); use Debian's.
  mkdir -p node_modules/@vscode/ripgrep/bin
  ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  # The server resolves some modules through node_modules.asar, which release builds pack.
  ln -sfn node_modules node_modules.asar

  cd extensions
  "${NPM[@]}" install --omit=dev --ignore-scripts
) >&2

# An explicit (empty) --config stops code-server writing ~/.config/code-server/config.yaml.
touch "$BUILD/config.yaml"
version=$(node "$BUILD/node_modules/code-server/out/node/entry.js" --config "$BUILD/config.yaml" --version)
log "installed: $version"
[[ $version == "$VERSION "*"with Code"* ]] || { log "unexpected --version output"; exit 1; }
touch "$BUILD/.installed"
mv "$BUILD" "$DIR"
echo "$ENTRY"
