"""Prints the markdown table of README.md from each run's results.json (lean rows only)."""
import json
import sys

RUNS = sys.argv[1:]


def rows(node):
    if isinstance(node, dict):
        if node.get('variant') in ('GetUserWithProducts', 'ComplexQuery') and 'gatewayCpuSecPer1k' in node:
            yield node
        for value in node.values():
            yield from rows(value)
    elif isinstance(node, list):
        for value in node:
            yield from rows(value)


print('| run | peak RSS MB, GetUserWithProducts / ComplexQuery | CPU-ms per request | p99 ms | req/s |')
print('| --- | ---: | ---: | ---: | ---: |')
for run in RUNS:
    found = {row['variant']: row for row in rows(json.load(open(f'{run}/results.json')))}
    g, c = found['GetUserWithProducts'], found['ComplexQuery']
    pair = lambda key, fmt: f"{fmt(g[key])} / {fmt(c[key])}"
    print(
        f"| {run} | {pair('gatewayPeakRssMb', lambda v: f'{v:.0f}')} "
        f"| {pair('gatewayCpuSecPer1k', lambda v: f'{v:.3f}')} "
        f"| {g['latencyMs']['p99']:.0f} / {c['latencyMs']['p99']:.0f} "
        f"| {g['rps']:,.0f} / {c['rps']:,.0f} |"
    )
