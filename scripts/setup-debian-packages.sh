#!/usr/bin/env bash
# Installs the Debian packages named as arguments that are not installed yet, the one way every set-up
# script of the project does it: apt-get update only when something is missing, and waiting for apt's
# lock (held by unattended upgrades, or by another of our installs) instead of failing. Logs to stderr.
set -euo pipefail

missing=()
for p in "$@"; do
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done
((${#missing[@]})) || exit 0

SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO="sudo"
echo "[setup] installing Debian packages: ${missing[*]} (about a minute)" >&2
APT=($SUDO apt-get -qq -o DPkg::Lock::Timeout=600)
"${APT[@]}" update >&2
DEBIAN_FRONTEND=noninteractive "${APT[@]}" install -y --no-install-recommends "${missing[@]}" >&2
