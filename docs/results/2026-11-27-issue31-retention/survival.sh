#!/bin/bash
# Usage: REQUESTS=<sent in the measured window> survival.sh <label>  (reads /tmp/arm-<label>.log, written by arm.sh)
# Over the measured window's scavenges: the share of allocated bytes that survived a scavenge,
# and allocated / promoted KB per request.
f=/tmp/arm-$1.log
awk -v n="${REQUESTS:-6000}" 'BEGIN{w=0} /=== measured window ===/{w++; next} w==1 && / gc=s /{for(i=1;i<=NF;i++){split($i,a,"="); if(a[1]=="promoted")p+=a[2]; if(a[1]=="allocated")al+=a[2]; if(a[1]=="new_space_survived")s+=a[2]} c++} END{printf "%s: scavenges %d, survived/allocated %.1f%%, alloc KB/req %.1f, promoted KB/req %.2f\n", "'$1'", c, 100*s/al, al/n/1000, p/n/1000}' $f
