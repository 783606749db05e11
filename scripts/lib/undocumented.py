"""Lists the public declarations of modules that have no doc comment, from the symbol graphs
`swift package dump-symbol-graph` writes; exits 1 if there is any.

usage: undocumented.py SYMBOLGRAPH_DIRECTORY MODULE...
"""
import glob
import json
import sys

directory, modules = sys.argv[1], sys.argv[2:]
missing = []
for module in modules:
    for path in glob.glob(f"{directory}/{module}.symbols.json") + glob.glob(f"{directory}/{module}@*.symbols.json"):
        for symbol in json.load(open(path))["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue  # Codable, Equatable and other members the compiler writes
            location = symbol.get("location", {}).get("uri", "")
            if f"/Sources/{module}/" not in location:
                continue  # declared in another module (a default implementation, say)
            if not symbol.get("docComment"):
                name = ".".join(symbol["pathComponents"])
                missing.append(f"{location.split('/Sources/')[-1]}: {module}.{name} ({symbol['kind']['displayName']})")
for line in sorted(missing):
    print(f"undocumented: {line}")
sys.exit(1 if missing else 0)
