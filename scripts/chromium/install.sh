#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing and this is a root shell that
# can use apt-get. Where neither works it says so and exits 0: the browser tests then fail, saying why.
set -uo pipefail
if [[ -x /usr/bin/chromium ]]; then
  exit 0
fi
if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium: installing Debian's chromium for the browser tests"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq chromium >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1; }
fi
if [[ ! -x /usr/bin/chromium ]]; then
  echo "chromium: NOT INSTALLED (needs root and apt-get): the browser tests cannot run" >&2
fi
exit 0
