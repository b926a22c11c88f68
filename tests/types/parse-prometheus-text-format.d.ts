// The package ships no types; this is the shape its README documents (prom2json's).
declare module 'parse-prometheus-text-format' {
  export interface PrometheusSample {
    readonly labels?: Readonly<Record<string, string>>;
    /** Counters, gauges, untyped. */
    readonly value?: string;
    /** Histograms: upper bound (`le`) → cumulative count. */
    readonly buckets?: Readonly<Record<string, string>>;
    readonly count?: string;
    readonly sum?: string;
  }
  export interface PrometheusFamily {
    readonly name: string;
    readonly help: string;
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly PrometheusSample[];
  }
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
