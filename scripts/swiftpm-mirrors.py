"""Merge upstream-URL -> local-mirror pairs into a SwiftPM mirrors.json, leaving other entries alone.

Usage: swiftpm-mirrors.py FILE ORIGINAL|MIRROR [ORIGINAL|MIRROR ...]
The file is rewritten only when an entry changes, so a second setup run touches nothing. The new
text goes to a temporary file of its own first and replaces the file in one rename, so two setups
running at once (two checkouts) each leave a whole file: the last one's.
"""
import json
import os
import sys
import tempfile

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
    with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(path), prefix=".mirrors-", delete=False) as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    os.chmod(f.name, 0o644)  # as a plain open() would have made it (a temporary file is 0600)
    os.replace(f.name, path)
    print(f"setup: SwiftPM mirrors in {path}: " + ", ".join(o for o, _ in pairs))
