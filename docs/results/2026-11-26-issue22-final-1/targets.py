"""Issue 22's target ratios from one or more bench runs' results.json: python3 <this> <run dir>..."""
import json
import sys


def row(results, scenario, target, variant):
    for each in next(s for s in results['scenarios'] if s['id'] == scenario)['rows']:
        if each['target'] == target and each['variant'] == variant and each.get('status') == 'ok':
            return each
    return None


for run in sys.argv[1:]:
    results = json.load(open(f'{run}/results.json'))
    print(f'## {run}')
    for query in ('GetUserWithProducts', 'ComplexQuery'):
        ours, router = row(results, 'A', 'nest-fastify', query), row(results, 'A', 'apollo-router', query)
        hive = row(results, 'A', 'hive-gateway-rust', query)
        cpu = ours['gatewayCpuSecPer1k'], router['gatewayCpuSecPer1k']
        p99 = ours['latencyMs']['p99'], router['latencyMs']['p99']
        rss = ours['gatewayPeakRssMb'], router['gatewayPeakRssMb']
        print(
            f"§A {query}: CPU {cpu[0]:.3f} vs {cpu[1]:.3f} = {cpu[0] / cpu[1]:.2f}x; "
            f"p99 {p99[0]:.0f} vs {p99[1]:.1f} = {p99[0] / p99[1]:.2f}x; "
            f"RSS {rss[0]:.0f} vs {rss[1]:.0f} = {rss[0] / rss[1]:.2f}x; "
            f"req/s {ours['rps'] / router['rps']:.2f}; "
            f"vs hive-gateway-rust CPU {cpu[0] / hive['gatewayCpuSecPer1k']:.2f}x"
        )
        stock = row(results, 'A', 'nest-fastify', f'{query} · apollo executor')
        print(f'   lean vs apollo executor: {cpu[0]:.3f} / {stock["gatewayCpuSecPer1k"]:.3f} = {cpu[0] / stock["gatewayCpuSecPer1k"] - 1:+.0%}')
    dash = {v: row(results, 'F', 'nest-fastify', v) for v in ('Dashboard', 'Dashboard · no dedup', 'Dashboard · dedup', 'Dashboard · apollo executor')}
    router = row(results, 'F', 'apollo-router', 'Dashboard')
    hive = row(results, 'F', 'hive-gateway-rust', 'Dashboard · dedup')
    cpu = lambda r: r['gatewayCpuSecPer1k']
    print(
        f"§F Dashboard: {cpu(dash['Dashboard']):.2f} vs Router {cpu(router):.2f} = {cpu(dash['Dashboard']) / cpu(router):.2f}x; "
        f"no dedup {cpu(dash['Dashboard · no dedup']):.2f} = {cpu(dash['Dashboard · no dedup']) / cpu(router):.2f}x; "
        f"with every dedup {cpu(dash['Dashboard · dedup']):.3f} vs hive dedup {cpu(hive):.3f} = {cpu(dash['Dashboard · dedup']) / cpu(hive):.2f}x; "
        f"lean vs apollo {cpu(dash['Dashboard']) / cpu(dash['Dashboard · apollo executor']) - 1:+.0%}"
    )
