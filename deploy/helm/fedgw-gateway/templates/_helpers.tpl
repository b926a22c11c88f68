{{/* The app label, as the kustomize base has it: "gateway". */}}
{{- define "fedgw.name" -}}
{{- default "gateway" .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Object names: the release name when it contains the app name, else <release>-<name>. */}}
{{- define "fedgw.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := include "fedgw.name" . }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "fedgw.selectorLabels" -}}
app.kubernetes.io/name: {{ include "fedgw.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "fedgw.labels" -}}
{{ include "fedgw.selectorLabels" . }}
app.kubernetes.io/component: gateway
app.kubernetes.io/part-of: fedgw
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "fedgw.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "fedgw.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name: set it to an existing account when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "fedgw.secretName" -}}
{{- default (printf "%s-secrets" (include "fedgw.fullname" .)) .Values.secrets.existingSecret }}
{{- end }}

{{- define "fedgw.supergraphConfigMap" -}}
{{- default (printf "%s-supergraph" (include "fedgw.fullname" .)) .Values.supergraph.existingConfigMap }}
{{- end }}

{{- define "fedgw.trustedDocumentsConfigMap" -}}
{{- default (printf "%s-trusted-documents" (include "fedgw.fullname" .)) .Values.trustedDocuments.existingConfigMap }}
{{- end }}

{{- define "fedgw.redisName" -}}
{{- printf "%s-redis" (include "fedgw.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Shutdown: preStop sleeps SHUTDOWN_DELAY_MS; the grace period must cover preStop + delay + grace + 5 s. */}}
{{- define "fedgw.preStopSeconds" -}}
{{- div .Values.gateway.shutdown.delayMs 1000 }}
{{- end }}

{{- define "fedgw.checkShutdown" -}}
{{- $s := .Values.gateway.shutdown }}
{{- if mod $s.delayMs 1000 }}
{{- fail (printf "gateway.shutdown.delayMs: %v is not whole seconds (the preStop sleep equals it)" $s.delayMs) }}
{{- end }}
{{- $needed := add (mul 2 (div $s.delayMs 1000)) (div (add $s.graceMs 999) 1000) 5 }}
{{- if lt (int .Values.gateway.terminationGracePeriodSeconds) (int $needed) }}
{{- fail (printf "gateway.terminationGracePeriodSeconds: %v < preStop %v s + SHUTDOWN_DELAY_MS + SHUTDOWN_GRACE_MS + 5 s = %v s" .Values.gateway.terminationGracePeriodSeconds (div $s.delayMs 1000) $needed) }}
{{- end }}
{{- end }}

{{- define "fedgw.checkRedis" -}}
{{- if and .Values.redis.deploy (not .Values.redis.enabled) }}
{{- fail "redis.deploy: true needs redis.enabled: true (deploy says which Redis, enabled says whether to use one)" }}
{{- end }}
{{- end }}
