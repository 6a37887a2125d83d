#!/usr/bin/python3
"""Coverage over time of one libFuzzer log: edges (cov) and features (ft) against seconds.

usage: fuzz-plot.py LOG OUT.png TITLE

libFuzzer's status lines carry cumulative executions and exec/s, not a clock; the time of a line is
estimated as execs / exec/s, which libFuzzer computes since the start of the run.
"""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

log, out, title = sys.argv[1:4]
line_re = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+).*exec/s: (\d+)")
times, cov, ft = [], [], []
with open(log, errors="replace") as f:
    for line in f:
        m = line_re.match(line)
        if not m:
            continue
        execs, edges, features, rate = map(int, m.groups())
        times.append(execs / rate if rate else 0.0)
        cov.append(edges)
        ft.append(features)
if not times:
    print("fuzz-plot: no status lines in", log, file=sys.stderr)
    sys.exit(1)
fig, ax = plt.subplots(figsize=(7, 4))
ax.step(times, cov, where="post", label="edges (cov)")
ax.step(times, ft, where="post", label="features (ft)")
ax.set_xlabel("seconds (estimated from execs / exec/s)")
ax.set_ylabel("count")
ax.set_title(f"libFuzzer coverage over time: {title}")
ax.legend()
ax.grid(True, alpha=0.3)
fig.tight_layout()
fig.savefig(out, dpi=100)
