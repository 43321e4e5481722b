#!/usr/bin/env bash
# `make chart-check`: what needs binaries this machine may lack. helm lints and renders the chart,
# kubeconform validates the rendered objects and the k8s/ kustomizations against Kubernetes schemas
# (CRDs from the community catalog). Each missing tool is named, and its check skipped, never faked.
# `make test` covers what runs without them (tests/deploy/).
set -euo pipefail
cd "$(dirname "$0")/.."
chart=helm/pos-platform
missing=()
have() { command -v "$1" >/dev/null 2>&1 || { missing+=("$1"); return 1; }; }
kubeconform_args=(-strict -summary -schema-location default
  -schema-location 'https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json')

have helm && helm=1 || helm=0
have kubeconform && kubeconform=1 || kubeconform=0
have kubectl && kubectl=1 || kubectl=0

if ((helm)); then
  helm lint --strict "$chart" -f "$chart/ci/test-values.yaml"
  rendered=$(helm template pos "$chart" -n pos -f "$chart/ci/test-values.yaml")
  if ((kubeconform)); then
    kubeconform "${kubeconform_args[@]}" <<<"$rendered"
  fi
elif [[ -x node_modules/.cache/chart-render ]]; then
  # The stand-in make test uses (Go text/template + sprig); its output is validated by
  # tests/deploy/chart-render.test.ts, not here.
  rendered=$(node_modules/.cache/chart-render "$chart" "$chart/ci/test-values.yaml")
  echo "chart-render (not helm): $(grep -c '^kind:' <<<"$rendered") objects rendered"
fi
if ((kubectl)); then
  for overlay in k8s/base k8s/kind; do
    built=$(kubectl kustomize "$overlay")
    echo "kubectl kustomize $overlay: $(grep -c '^kind:' <<<"$built") objects"
    if ((kubeconform)); then
      kubeconform "${kubeconform_args[@]}" <<<"$built"
    fi
  done
fi
if ((${#missing[@]} > 0)); then
  echo "chart-check: NOT RUN for lack of: ${missing[*]} (install them to run these checks)" >&2
  exit 2
fi
echo "chart-check: ok"
