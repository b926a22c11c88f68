import json, sys, collections
prof = json.load(open(sys.argv[1]))
requests = float(sys.argv[2])
self_by = collections.Counter(); incl_pkg = collections.Counter()
def pkg(url):
    if not url: return '(native/builtin)'
    if 'node_modules' in url:
        part = url.split('node_modules/')[-1]
        bits = part.split('/')
        return bits[0] + ('/' + bits[1] if bits[0].startswith('@') else '')
    if url.startswith('node:'): return url
    for d in ('gateway/dist', 'adapters/dist', 'server/dist', 'subgraphs/dist'):
        if d in url: return d + '/' + url.split(d + '/')[-1]
    return url
def walk(node, stack):
    cf = node['callFrame']
    size = node["selfSize"]
    here = f"{cf['functionName'] or '(anon)'} {pkg(cf['url'])}:{cf['lineNumber']+1}"
    self_by[here] += size
    # attribute to the nearest frame in our code or a package
    incl_pkg[pkg(cf['url']).split(':')[0] if cf['url'] else (stack[-1] if stack else '(root)')] += size
    for c in node.get('children', []):
        walk(c, stack + ([pkg(cf['url'])] if cf['url'] else []))
walk(prof['head'], [])
total = sum(self_by.values())
print(f"total sampled {total/1e6:.1f} MB over {requests:.0f} requests = {total/requests/1e3:.0f} KB per request")
print("\nby package/file (self):")
for k, v in incl_pkg.most_common(15): print(f"  {v/requests/1e3:7.1f} KB/req  {100*v/total:5.1f}%  {k}")
print("\ntop allocation sites (self):")
for k, v in self_by.most_common(25): print(f"  {v/requests/1e3:7.1f} KB/req  {100*v/total:5.1f}%  {k}")
