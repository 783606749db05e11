"""scripts/lib/seam.py passes on this tree and fails on a copy broken on purpose, one bar at a time."""
import contextlib
import io
import pathlib
import shutil
import tempfile
import unittest

import seam

ROOT = pathlib.Path(__file__).resolve().parents[2]


class SeamTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.directory.name)
        for target in ("StratusServer", "StratusSQLite", "StratusPostgreSQL"):
            shutil.copytree(ROOT / "Sources" / target, self.root / "Sources" / target)
        (self.root / "docs").mkdir()
        shutil.copy(ROOT / "docs/architecture.md", self.root / "docs/architecture.md")
        self.service = self.root / "Sources/StratusServer/Services/Zones/ZoneService.swift"

    def tearDown(self):
        self.directory.cleanup()

    def broken(self):
        with contextlib.redirect_stdout(io.StringIO()):
            return seam.check(self.root)

    def test_this_tree_keeps_every_enforced_bar(self):
        self.assertEqual(self.broken(), [])

    def test_a_driver_import_above_the_seam_is_refused(self):
        self.service.write_text("import GRDB\n" + self.service.read_text())
        self.assertTrue(any("imports GRDB" in item for item in self.broken()))

    def test_a_driver_type_named_above_the_seam_is_refused(self):
        self.service.write_text(self.service.read_text() + "\nlet queue: PostgresConnection? = nil\n")
        self.assertTrue(any("names PostgresConnection" in item for item in self.broken()))

    def test_a_wall_clock_read_outside_the_clock_is_refused(self):
        self.service.write_text(self.service.read_text() + "\nlet started = Date()\n")
        self.assertTrue(any("reads the wall clock" in item for item in self.broken()))

    def test_a_store_protocol_of_sixteen_requirements_is_refused(self):
        requirements = "".join(f"    func requirement{n}() async throws\n" for n in range(16))
        store = self.root / "Sources/StratusServer/Storage/Stores/WideStore.swift"
        store.write_text("package protocol WideStore {\n" + requirements + "}\n")
        self.assertTrue(any("WideStore" in item and "16 requirements" in item for item in self.broken()))

    def test_the_page_must_state_the_bars(self):
        page = self.root / "docs/architecture.md"
        page.write_text(page.read_text().replace("15 requirements", "fifteen"))
        self.assertTrue(any("15 requirements" in item for item in self.broken()))


if __name__ == "__main__":
    unittest.main()
