#!/usr/bin/env bash
# Installs code-server 4.99.4 (VS Code 1.99.3, the newest that runs on Node 20) plus Debian's
# Chromium for the e2e smoke test, following shared/notes/code-server.md. code-server's own
# install scripts download prebuilt binaries, which cannot be fetched here, so we install with
# --ignore-scripts and rebuild the native modules from source against Debian's dev packages.
#
# Idempotent: a marker file is written only after `--version` succeeds, so a half-finished
# install is wiped and redone, and a finished one costs only a few dpkg queries.
# Logs go to stderr; the last (only) line on stdout is the path of code-server's entry.js.
set -euo pipefail

VERSION=4.99.4
DIR="${TOOLDEF_CACHE:-$HOME/.cache/tooldef}/code-server-$VERSION"
ENTRY="$DIR/node_modules/code-server/out/node/entry.js"
MARKER="$DIR/.installed"

log() { echo "[setup-code-server] $*" >&2; }

# --- Debian packages: apt-get update only when something is actually missing. ---
PKGS=(libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev pkg-config ripgrep chromium)
missing=()
for p in "${PKGS[@]}"; do
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# --- code-server ---
if [[ -f "$MARKER" && -f "$ENTRY" ]]; then
  log "code-server $VERSION already installed in $DIR"
  echo "$ENTRY"
  exit 0
fi

log "installing code-server $VERSION into $DIR (takes a few minutes)"
rm -rf "$DIR"
mkdir -p "$DIR"
NPM=(npm --no-audit --no-fund --loglevel=error)
(
  cd "$DIR"
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
touch "$DIR/config.yaml"
version=$(node "$ENTRY" --config "$DIR/config.yaml" --version)
log "installed: $version"
[[ $version == "$VERSION "*"with Code"* ]] || { log "unexpected --version output"; exit 1; }
touch "$MARKER"
echo "$ENTRY"
