{{/* The gateway container's environment, in the kustomize base's order. */}}
{{- define "fedgw.env" -}}
- name: GATEWAY_ENV
  value: {{ .Values.gateway.env | quote }}
- name: GATEWAY_RUNTIME
  value: nest
- name: GATEWAY_ADAPTER
  value: fastify
- name: GATEWAY_LISTEN_HOST
  value: 0.0.0.0
- name: GATEWAY_LISTEN_PORT
  value: {{ .Values.service.port | int | quote }}
- name: GATEWAY_LOG_LEVEL
  value: {{ .Values.gateway.logLevel | quote }}
- name: SHUTDOWN_DELAY_MS
  value: {{ .Values.gateway.shutdown.delayMs | int | quote }}
- name: SHUTDOWN_GRACE_MS
  value: {{ .Values.gateway.shutdown.graceMs | int | quote }}
- name: METRICS_ENABLED
  value: {{ .Values.metrics.enabled | quote }}
{{- if .Values.metrics.enabled }}
- name: METRICS_PORT
  value: {{ .Values.metrics.port | int | quote }}
{{- end }}
- name: SUPERGRAPH_PATH
  value: /etc/gateway/supergraph/supergraph.graphql
- name: SUPERGRAPH_POLL_INTERVAL_MS
  value: {{ .Values.supergraph.pollIntervalMs | int | quote }}
- name: TRUSTED_DOCUMENTS
  value: /etc/gateway/trusted-documents/manifest.json
- name: TRUSTED_DOCUMENTS_MODE
  value: {{ .Values.trustedDocuments.mode | quote }}
- name: GATEWAY_PLUGINS
  value: {{ .Values.gateway.plugins | quote }}
- name: GATEWAY_API_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ include "fedgw.secretName" . }}
      key: API_KEYS
- name: JWT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "fedgw.secretName" . }}
      key: JWT_SECRET
- name: JWT_ALGORITHMS
  value: {{ .Values.jwt.algorithms | quote }}
- name: JWT_REQUIRED
  value: {{ .Values.jwt.required | quote }}
- name: RATE_LIMIT_KEY
  value: {{ .Values.rateLimit.key | quote }}
- name: RATE_LIMIT_MAX
  value: {{ .Values.rateLimit.max | int | quote }}
- name: RATE_LIMIT_WINDOW
  value: {{ .Values.rateLimit.window | quote }}
- name: RATE_LIMIT_FAILURE_MODE
  value: {{ .Values.rateLimit.failureMode | quote }}
{{- if and .Values.redis.enabled .Values.redis.deploy }}
# The chart's own Redis (no password; only gateway pods may reach it).
- name: GATEWAY_REDIS_URL
  value: {{ printf "redis://%s:6379" (include "fedgw.redisName" .) | quote }}
{{- else if .Values.redis.enabled }}
- name: GATEWAY_REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "fedgw.secretName" . }}
      key: {{ .Values.redis.urlKey }}
{{- end }}
- name: OTEL_SERVICE_NAME
  value: {{ .Values.otel.serviceName | quote }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}
