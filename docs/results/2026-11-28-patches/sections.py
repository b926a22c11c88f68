#!/usr/bin/env python3
"""Writes the sections of a patch (one per file, `diff --git`) whose file path contains any of
the given texts to <out dir>/<the patch's file name>, so ab-split.sh can take back part of a patch.
Usage: python3 sections.py <patch> <out dir> <text>..."""
import os, re, sys

patch, out, texts = sys.argv[1], sys.argv[2], sys.argv[3:]
sections = re.split(r'(?m)^(?=diff --git )', open(patch).read())
kept = [s for s in sections if s.startswith('diff --git ') and any(t in s.split('\n', 1)[0] for t in texts)]
os.makedirs(out, exist_ok=True)
open(os.path.join(out, os.path.basename(patch)), 'w').write(''.join(kept))
print(f'{len(kept)} of {len(sections) - 1} sections', file=sys.stderr)
