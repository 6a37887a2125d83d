"""Merge upstream-URL -> local-mirror pairs into a SwiftPM mirrors.json, leaving other entries alone.

Usage: swiftpm-mirrors.py FILE ORIGINAL|MIRROR [ORIGINAL|MIRROR ...]
The file is rewritten only when an entry changes, so a second setup run touches nothing.
"""
import json
import os
import sys

path, pairs = sys.argv[1], [a.split("|", 1) for a in sys.argv[2:]]
try:
    with open(path) as f:
        config = json.load(f)
except FileNotFoundError:
    config = {"object": [], "version": 1}
entries = {e["original"]: e for e in config.get("object", [])}
changed = False
for original, mirror in pairs:
    if entries.get(original, {}).get("mirror") != mirror:
        entries[original] = {"original": original, "mirror": mirror}
        changed = True
if changed:
    config["object"] = sorted(entries.values(), key=lambda e: e["original"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    os.replace(path + ".tmp", path)
    print(f"setup: SwiftPM mirrors in {path}: " + ", ".join(o for o, _ in pairs))
