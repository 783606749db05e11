"""Tests of app_dependencies.py on manifests written here (as `swift package dump-package` prints them)."""

import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import app_dependencies  # noqa: E402


def spec(identity, traits=None):
    entry = {"identity": identity, "location": {"remote": [{"urlString": f"https://example.com/{identity}.git"}]}}
    if traits is not None:
        entry["traits"] = [{"name": t} for t in traits]
    return {"sourceControl": [entry]}


def product(name, package, condition=None):
    return {"product": [name, package, None, condition]}


MANIFESTS = {
    "root": {
        "name": "stratus",
        "dependencies": [spec("nio"), spec("grdb"), spec("config", traits=["YAML"])],
        "products": [{"name": "Data", "targets": ["Data"]}, {"name": "Plain", "targets": ["Plain"]}],
        "targets": [
            {"name": "Data", "dependencies": [{"byName": ["Client", None]}, product("GRDB", "grdb")]},
            {"name": "Client", "dependencies": [product("NIO", "nio", {"platformNames": ["linux"]})]},
            {"name": "Plain", "dependencies": [product("Configuration", "config")]},
        ],
    },
    "nio": {"name": "nio", "dependencies": [], "products": [{"name": "NIO", "targets": ["NIO"]}],
            "targets": [{"name": "NIO", "dependencies": [{"target": ["CNIOLinux", {"platformNames": ["linux"]}]}]},
                        {"name": "CNIOLinux", "dependencies": []}]},
    "grdb": {"name": "GRDB", "dependencies": [], "products": [{"name": "GRDB", "targets": ["GRDB"]}],
             "targets": [{"name": "GRDB", "dependencies": []}]},
    "config": {"name": "config", "dependencies": [spec("yams")],
               "traits": [{"name": "default", "enabledTraits": ["JSON"]}, {"name": "JSON", "enabledTraits": []},
                          {"name": "YAML", "enabledTraits": []}],
               "products": [{"name": "Configuration", "targets": ["Configuration"]}],
               "targets": [{"name": "Configuration",
                            "dependencies": [product("Yams", "yams", {"platformNames": [], "traits": ["YAML"]})]}]},
    "yams": {"name": "Yams", "dependencies": [], "products": [{"name": "Yams", "targets": ["Yams"]}],
             "targets": [{"name": "Yams", "dependencies": []}]},
}


class AppDependenciesTests(unittest.TestCase):
    def graph(self, manifests=MANIFESTS):
        root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, root)
        for name in manifests:
            if name != "root":
                os.makedirs(os.path.join(root, ".build", "checkouts", name))
        return app_dependencies.Graph(root, dump=lambda d: manifests["root" if d == root else os.path.basename(d)])

    def test_a_platform_condition_keeps_a_dependency_off_other_platforms(self):
        packages, targets = app_dependencies.closure(self.graph(), "Data", "ios")
        self.assertEqual(packages, {"stratus", "grdb"})
        self.assertNotIn(("nio", "NIO"), targets)
        packages, targets = app_dependencies.closure(self.graph(), "Data", "linux")
        self.assertIn(("nio", "CNIOLinux"), targets)

    def test_a_trait_the_dependent_enables_brings_its_dependency(self):
        packages, _ = app_dependencies.closure(self.graph(), "Plain", "ios")
        self.assertIn("yams", packages)
        without = dict(MANIFESTS, root=dict(MANIFESTS["root"], dependencies=[spec("nio"), spec("grdb"), spec("config")]))
        packages, _ = app_dependencies.closure(self.graph(without), "Plain", "ios")
        self.assertNotIn("yams", packages, "the default traits do not include YAML")

    def test_a_forbidden_package_fails_the_run(self):
        graph = self.graph()
        original = app_dependencies.Graph
        app_dependencies.Graph = lambda _root: graph
        self.addCleanup(lambda: setattr(app_dependencies, "Graph", original))
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            self.assertEqual(app_dependencies.main(["--platform", "linux", "--forbid", "nio", "Data"]), 1)
            self.assertIn("BROKEN  Data fetches nio", printed.getvalue())
            self.assertEqual(app_dependencies.main(["--platform", "ios", "--forbid", "nio", "Data"]), 0)
            # A rule for one product leaves the others alone.
            self.assertEqual(app_dependencies.main(["--platform", "linux", "--forbid", "Plain:nio", "Data"]), 0)
            self.assertEqual(app_dependencies.main(["--platform", "linux", "--forbid", "Data:nio", "Data"]), 1)


if __name__ == "__main__":
    unittest.main()
