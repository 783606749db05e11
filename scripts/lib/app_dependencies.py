"""What an app that adds one of this package's products builds, computed from the manifests.

For each product named, follows its targets' dependencies through this package's manifest and the manifests
of the packages SwiftPM checked out (`swift package dump-package` in each), keeping only the dependencies whose
platform condition includes the platform asked for, and prints the packages SwiftPM fetches for it and the
targets it compiles. Computed, not built: nothing here compiles for that platform.

    python3 scripts/lib/app_dependencies.py --platform ios StratusData StratusTesting
"""

import argparse
import json
import os
import subprocess
import sys


def identity(name):
    """A package's identity as SwiftPM spells it: the last path component, lowercased, without `.git`."""
    name = name.rstrip("/").split("/")[-1].lower()
    return name[:-4] if name.endswith(".git") else name


class Graph:
    """The manifests of this package and of its checkouts, read once each."""

    def __init__(self, root, dump=None):
        self.root = root
        self.dump = dump or self._dump
        self.manifests = {}
        self.declared = {}
        self.checkouts = {}
        checkouts = os.path.join(root, ".build", "checkouts")
        if os.path.isdir(checkouts):
            for entry in os.listdir(checkouts):
                self.checkouts[identity(entry)] = os.path.join(checkouts, entry)
        self.root_identity = identity(self.manifest(None)["name"])

    @staticmethod
    def _dump(directory):
        out = subprocess.run(["swift", "package", "dump-package"], cwd=directory, check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out)

    def manifest(self, package):
        """The manifest of `package` (an identity), or of the root for None."""
        if package not in self.manifests:
            directory = self.root if package is None else self.checkouts.get(package)
            if directory is None:
                raise SystemExit(f"app_dependencies: no checkout of {package} (run swift package resolve)")
            self.manifests[package] = self.dump(directory)
        return self.manifests[package]

    def dependency(self, package, name):
        """`package`'s dependency called `name` in its targets: its identity and the traits asked of it (None: its
        defaults)."""
        if package not in self.declared:
            declared = {}
            for dependency in self.manifest(package).get("dependencies", []):
                for specs in dependency.values():
                    for spec in specs:
                        listed = spec.get("traits")
                        entry = (spec["identity"], None if listed is None else [t["name"] for t in listed])
                        declared[spec["identity"]] = entry
                        if spec.get("nameForTargetDependencyResolutionOnly"):
                            declared[spec["nameForTargetDependencyResolutionOnly"].lower()] = entry
            self.declared[package] = declared
        return self.declared[package].get(name.lower(), (identity(name), None))

    def enabled_traits(self, package, asked):
        """The traits of `package` enabled when asked for `asked` (None: its defaults), expanded."""
        declared = {t["name"]: t.get("enabledTraits", []) for t in self.manifest(package).get("traits", []) or []}
        pending = ["default"] if asked is None else list(asked)
        enabled = set()
        while pending:
            name = pending.pop()
            if name not in enabled:
                enabled.add(name)
                pending += declared.get(name, [])
        return enabled

    def product_targets(self, package, product):
        for entry in self.manifest(package).get("products", []):
            if entry["name"] == product:
                return entry["targets"]
        raise SystemExit(f"app_dependencies: {package or 'this package'} has no product {product}")

    def target(self, package, name):
        for entry in self.manifest(package).get("targets", []):
            if entry["name"] == name:
                return entry
        return None


def applies(condition, platform, traits=frozenset()):
    """Whether a dependency with this condition is built for `platform` with `traits` enabled."""
    if not condition:
        return True
    names = condition.get("platformNames") or []
    needed = condition.get("traits") or []
    return (not names or platform in names) and (not needed or any(t in traits for t in needed))


def closure(graph, product, platform):
    """The packages fetched and the targets compiled for an app that adds `product` of the root package."""
    packages, targets = set(), set()
    traits = {graph.root_identity: graph.enabled_traits(None, None)}

    def reach(package, other):
        """`other` as `package` names it, its traits (what `package` asks of it) merged in."""
        other, asked = graph.dependency(package, other)
        traits.setdefault(other, set()).update(graph.enabled_traits(other, asked))
        return other

    pending = [(None, name) for name in graph.product_targets(None, product)]
    while pending:
        package, name = pending.pop()
        key = (package or graph.root_identity, name)
        if key in targets:
            continue
        targets.add(key)
        packages.add(key[0])
        target = graph.target(package, name)
        if target is None:
            raise SystemExit(f"app_dependencies: {key[0]} has no target {name}")
        enabled = traits.get(key[0], set())
        for dependency in target.get("dependencies", []):
            if "target" in dependency:
                name_, condition = dependency["target"][0], dependency["target"][1]
                if applies(condition, platform, enabled):
                    pending.append((package, name_))
            elif "product" in dependency:
                name_, other, _, condition = dependency["product"]
                if applies(condition, platform, enabled):
                    other = reach(package, other)
                    pending += [(other, t) for t in graph.product_targets(other, name_)]
            elif "byName" in dependency:
                name_, condition = dependency["byName"][0], dependency["byName"][1]
                if not applies(condition, platform, enabled):
                    continue
                if graph.target(package, name_) is not None:
                    pending.append((package, name_))
                else:
                    # A product of a dependency named like its package.
                    other = reach(package, name_)
                    pending += [(other, t) for t in graph.product_targets(other, name_)]
    return packages, targets


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--platform", default="ios")
    parser.add_argument("--forbid", action="append", default=[],
                        help="fail if this package (PACKAGE) is fetched for any product named, or (PRODUCT:PACKAGE) for that one")
    parser.add_argument("products", nargs="+")
    arguments = parser.parse_args(argv)
    graph = Graph(os.getcwd())
    failed = False
    for product in arguments.products:
        packages, targets = closure(graph, product, arguments.platform)
        others = sorted(p for p in packages if p != graph.root_identity)
        print(f"{product} on {arguments.platform}: {len(others)} packages fetched, {len(targets)} targets compiled")
        print("  packages: " + ", ".join(others))
        print("  targets: " + ", ".join(sorted(f"{p}/{t}" for p, t in targets)))
        for rule in arguments.forbid:
            scope, _, forbidden = rule.rpartition(":")
            if scope in ("", product) and forbidden in packages:
                print(f"  BROKEN  {product} fetches {forbidden}")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
