#!/usr/bin/env python3
"""Resident pages of the Node binary in a running process, by section.

Usage (as root, for /proc/<pid>/pagemap): python3 binary-pages.py <pid>
Reads the binary's mappings from /proc/<pid>/maps, the present bit of each page from
/proc/<pid>/pagemap, and the section bounds from `readelf -SW` and `nm -S` (ICU's data table,
icudt*_dat, is carved out of .rodata). A non-PIE binary (Node's release builds) is mapped at
its link addresses, so no offset is applied.
"""
import re, struct, subprocess, sys

pid = sys.argv[1]
PAGE = 4096
maps = [line.split() for line in open(f'/proc/{pid}/maps')]
binary = next(m[5] for m in maps if len(m) > 5 and m[5].endswith('/bin/node'))
sections = {}
for line in subprocess.run(['readelf', '-SW', binary], capture_output=True, text=True).stdout.splitlines():
    m = re.match(r'\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)', line)
    if m and m.group(1) in ('.text', '.rodata', '.data', '.bss'):
        start = int(m.group(2), 16)
        sections[m.group(1)] = (start, start + int(m.group(3), 16))
icu = None
for line in subprocess.run(['nm', '-S', binary], capture_output=True, text=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 4 and re.fullmatch(r'icudt\d+_dat', parts[3]):
        start = int(parts[0], 16)
        icu = (start, start + int(parts[1], 16))
counts = {'.text': 0, 'icu data': 0, '.rodata (rest)': 0, '.data/.bss': 0, 'other': 0}
pagemap = open(f'/proc/{pid}/pagemap', 'rb')
for m in maps:
    if len(m) < 6 or m[5] != binary:
        continue
    lo, hi = (int(x, 16) for x in m[0].split('-'))
    pagemap.seek(lo // PAGE * 8)
    entries = pagemap.read((hi - lo) // PAGE * 8)
    for i in range(0, len(entries), 8):
        if not struct.unpack_from('<Q', entries, i)[0] >> 63:
            continue
        a = lo + i // 8 * PAGE
        if icu and icu[0] <= a < icu[1]:
            counts['icu data'] += 1
        elif sections['.text'][0] <= a < sections['.text'][1]:
            counts['.text'] += 1
        elif sections['.rodata'][0] <= a < sections['.rodata'][1]:
            counts['.rodata (rest)'] += 1
        elif sections['.data'][0] <= a < sections['.bss'][1]:
            counts['.data/.bss'] += 1
        else:
            counts['other'] += 1
total = sum(counts.values())
print(f'binary resident MB {total * PAGE / 1e6:.1f}', ' '.join(f'{k}={v * PAGE / 1e6:.1f}' for k, v in counts.items()))
