{{/* Names and labels. */}}
{{- define "pos-platform.name" -}}
{{- .Values.nameOverride | default .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "pos-platform.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "pos-platform.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "pos-platform.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "pos-platform.selectorLabels" -}}
app.kubernetes.io/name: {{ include "pos-platform.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "pos-platform.labels" -}}
{{ include "pos-platform.selectorLabels" . }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: {{ include "pos-platform.name" .root }}
{{- end }}

{{- define "pos-platform.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "pos-platform.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{- define "pos-platform.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "pos-platform.fullname" .)) }}
{{- end }}

{{/* The migration hook's Secret: the chart's own Secret does not exist yet when pre-install hooks run. */}}
{{- define "pos-platform.hookSecretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-migrate" (include "pos-platform.fullname" .)) }}
{{- end }}

{{- define "pos-platform.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}

{{/* The worker pools: values key, role name (the entry point under dist/services/). */}}
{{- define "pos-platform.workerPools" -}}
gatewayPoller: gateway-poller
codeExpiry: code-expiry
payoutProcessor: payout-processor
webhookDelivery: webhook-delivery
{{- end }}

{{/* A component's settings: the shared defaults with the component's own keys over them. */}}
{{- define "pos-platform.settings" -}}
{{- toYaml (mergeOverwrite (deepCopy .root.Values.defaults) (deepCopy .component)) }}
{{- end }}

{{/*
The environment of a component's container. `secretEnv` lists the secret variables it receives;
`databaseKey` is the Secret key its DATABASE_URL comes from. A hook (the migration job) runs before
the release's ConfigMap and Secret exist, so it reads neither.
*/}}
{{- define "pos-platform.env" -}}
{{- if get . "hook" }}
env:
  - name: LOG_LEVEL
    value: {{ .root.Values.config.LOG_LEVEL | quote }}
{{- else }}
envFrom:
  - configMapRef:
      name: {{ include "pos-platform.fullname" .root }}-config
env:
{{- end }}
  - name: NODE_ENV
    value: production
  - name: DATABASE_URL
    valueFrom:
      secretKeyRef:
        name: {{ if get . "hook" }}{{ include "pos-platform.hookSecretName" .root }}{{ else }}{{ include "pos-platform.secretName" .root }}{{ end }}
        key: {{ .databaseKey }}
  {{- range .secretEnv }}
  - name: {{ . }}
    valueFrom:
      secretKeyRef:
        name: {{ include "pos-platform.secretName" $.root }}
        key: {{ . }}
        {{- if has . (list "ADMIN_TOKEN" "GATEWAY_API_KEY" "WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS") }}
        optional: true
        {{- end }}
  {{- end }}
  {{- range $name, $value := .env }}
  - name: {{ $name }}
    value: {{ $value | toString | quote }}
  {{- end }}
{{- end }}

{{/* Pod-level settings shared by every Deployment and the migration Job. */}}
{{- define "pos-platform.podSpec" -}}
{{- /* The chart's ServiceAccount does not exist yet when a pre-install hook runs. */}}
{{- if not (and (get . "hook") .root.Values.serviceAccount.create) }}
serviceAccountName: {{ include "pos-platform.serviceAccountName" .root }}
{{- end }}
automountServiceAccountToken: false
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with .settings.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .settings.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .settings.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .settings.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
volumes:
  # The only writable path: the root filesystem is read-only.
  - name: tmp
    emptyDir:
      sizeLimit: 64Mi
{{- end }}

{{- define "pos-platform.podMetadata" -}}
labels:
  {{- include "pos-platform.labels" (dict "root" .root "component" .component) | nindent 2 }}
  {{- with .settings.podLabels }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
annotations:
  checksum/config: {{ include (print .root.Template.BasePath "/configmap.yaml") .root | sha256sum }}
  checksum/secret: {{ include (print .root.Template.BasePath "/secret.yaml") .root | sha256sum }}
  {{- with .settings.podAnnotations }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end }}

{{/*
A container's command: node, the component's nodeArgs (settings), then its script.
*/}}
{{- define "pos-platform.command" -}}
command:
  - node
  {{- range .settings.nodeArgs }}
  - {{ . | quote }}
  {{- end }}
  - {{ .script }}
{{- end }}

{{/*
Liveness on /healthz (or `livenessPath`: the worker pools' /livez, which fails while a pool takes no
jobs though jobs are due), readiness on /readyz, a startup probe that allows a minute to start.
*/}}
{{- define "pos-platform.probes" -}}
startupProbe:
  httpGet:
    path: /healthz
    port: {{ .port }}
  periodSeconds: 2
  failureThreshold: 30
livenessProbe:
  httpGet:
    path: {{ get . "livenessPath" | default "/healthz" }}
    port: {{ .port }}
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
readinessProbe:
  httpGet:
    path: /readyz
    port: {{ .port }}
  periodSeconds: 2
  timeoutSeconds: 2
  failureThreshold: 1
{{- end }}
