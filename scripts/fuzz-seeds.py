#!/usr/bin/env python3
"""Writes the fuzz seed corpus: the first lines of every file of the real feeds and of data/.

    fuzz-seeds.py OUT_DIR [FEED.zip ...]
"""
import os
import sys
import zipfile

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
count = 0
def seed(name, data):
    global count
    lines = data.split(b"\n")
    for size in (2, 5, 40):
        with open(os.path.join(out, f"{count:04d}-{name}-{size}"), "wb") as f:
            f.write(b"\n".join(lines[:size]))
        count += 1
for path in sys.argv[2:]:
    if os.path.isdir(path):
        for name in sorted(os.listdir(path)):
            if name.endswith(".txt"):
                with open(os.path.join(path, name), "rb") as f:
                    seed(name, f.read(200_000))
    elif os.path.exists(path):
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                if name.endswith(".txt"):
                    with z.open(name) as f:
                        seed(os.path.basename(name), f.read(200_000))
print(f"{count} seeds in {out}")
