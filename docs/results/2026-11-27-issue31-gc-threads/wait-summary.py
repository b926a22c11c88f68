# Summarizes a wait-probe.mjs file over its last 20 s: python3 wait-summary.py <file>
import sys
R=[];F=[]
for l in open(sys.argv[1]):
    p=l.split()
    if p[0]=='R': R.append((float(p[1]),float(p[2]),float(p[3]),int(p[4])))
    elif p[0]=='F': F.append((float(p[1]),float(p[2]),float(p[3]),float(p[4]),int(p[5])))
tmax=max(r[0] for r in R); R=[r for r in R if r[0]>tmax-20000]; F=[f for f in F if f[0]>tmax-20000]
def q(xs,p): xs=sorted(xs); return xs[min(len(xs)-1,int(p*len(xs)))]
def show(name,xs): print(f"{name:22s} p50={q(xs,.5):7.2f} p90={q(xs,.9):7.2f} p99={q(xs,.99):7.2f} p999={q(xs,.999):7.2f} max={max(xs):7.2f}")
print(len(R),'requests',len(F),'fetches')
show('R queue(per-client)',[r[1] for r in R]); show('R handle',[r[2] for r in R]); show('R total',[r[1]+r[2] for r in R]); show('R inflight@start',[r[3] for r in R])
show('F pool wait',[f[1] for f in F]); show('F to headers',[f[2] for f in F]); show('F body',[f[3] for f in F]); show('F total',[f[1]+f[2]+f[3] for f in F]); show('F concurrent',[f[4] for f in F])
# slow requests: time series
slow=sorted(R,key=lambda r:-(r[1]+r[2]))[:15]
for r in sorted(slow): print('slow at %.0f queue %.1f handle %.1f inflight %d'%(r[0]-(tmax-20000),r[1],r[2],r[3]))
