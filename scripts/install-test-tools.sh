#!/usr/bin/env bash
# Installs the Debian packages the test suite drives, when missing and this is a root shell that can
# use apt-get: chromium (browser tests, through playwright-core; never a browser a tool downloads),
# prometheus (for promtool, which tests the alerting rules), pgbouncer (the transaction-pooler tier,
# tests/platform/transaction-pooler.test.ts) and postgresql-15 (the failover scenario's primary and
# standby, tests/chaos/failover.test.ts). Where that is impossible it says so and
# exits 0: the tests that need a tool then fail, saying which.
set -uo pipefail
missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
[[ -x /usr/sbin/pgbouncer ]] || missing+=(pgbouncer)
[[ -x /usr/lib/postgresql/15/bin/pg_ctl ]] || missing+=(postgresql-15)
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi
if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "test tools: installing ${missing[*]} (Debian)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; }
fi
[[ -x /usr/bin/chromium ]] || echo "test tools: chromium NOT INSTALLED (needs root and apt-get)" >&2
command -v promtool >/dev/null 2>&1 || echo "test tools: promtool NOT INSTALLED (needs root and apt-get)" >&2
[[ -x /usr/sbin/pgbouncer ]] || echo "test tools: pgbouncer NOT INSTALLED (needs root and apt-get)" >&2
[[ -x /usr/lib/postgresql/15/bin/pg_ctl ]] || echo "test tools: postgresql-15 NOT INSTALLED (needs root and apt-get)" >&2
exit 0
