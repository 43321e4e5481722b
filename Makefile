# Every target runs on the Node 24 pinned in package.json (node_modules/.bin/node), not the system Node.
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)

INSTALL_STAMP := node_modules/.install-stamp
# Renders the Helm chart for the tests (helm itself is not installable here): scripts/chart-render.
CHART_RENDER := node_modules/.cache/chart-render

.PHONY: install test-tools run test migrate typecheck lint build schema-dump bench-platform release-check chart-check

# Installs dependencies only when package.json or the lockfile changed since the last install. `npm ci`
# installs exactly the lockfile and fails when package.json and the lockfile disagree, instead of
# rewriting the lockfile.
$(INSTALL_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

install: $(INSTALL_STAMP)

# Built from Debian's Go and sprig packages (installed if missing and possible); when it cannot be
# built, the chart render tests say so and are skipped.
$(CHART_RENDER): scripts/chart-render/main.go scripts/chart-render/build.sh | $(INSTALL_STAMP)
	scripts/chart-render/build.sh $@

# Debian's chromium (browser tests) and promtool (alerting rule tests).
test-tools:
	scripts/install-test-tools.sh

# The browser apps are built first (web/build.ts, into the git-ignored web/dist).
run: install
	node web/build.ts
	node services/dev/main.ts

# The tests' global setup builds the browser apps (tests/support/global-setup.ts).
test: install $(CHART_RENDER) test-tools
	tsc --noEmit -p tsconfig.json
	tsc --noEmit -p web/tsconfig.json
	tsc -p load-tests/k6/tsconfig.json
	biome check .
	node scripts/import-graph/check.ts
	npm test

migrate: install
	node services/migrate/main.ts

typecheck: install
	tsc --noEmit -p tsconfig.json
	tsc --noEmit -p web/tsconfig.json
	tsc -p load-tests/k6/tsconfig.json

lint: install
	biome check .
	node scripts/import-graph/check.ts

build: install
	npm run build

schema-dump: install
	node scripts/schema-dump.ts

# Builds the release as the Dockerfile does, in a temporary directory, and starts it against PostgreSQL.
# Also part of `make test` (tests/deploy/release.test.ts).
release-check: install
	node scripts/release-check.ts

# helm lint, helm template | kubeconform, kubectl kustomize: where those binaries exist; says which are missing.
chart-check: install $(CHART_RENDER)
	scripts/chart-check.sh
