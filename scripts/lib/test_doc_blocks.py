"""Tests of doc_blocks.py: the audit finds an unmarked block, a block nothing runs and a runner that
does not run its block; the generator makes Swift of the guides' blocks."""
import os
import tempfile
import unittest

import doc_blocks


class DocBlocksTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.root = self.directory.name
        for path in doc_blocks.GUIDES:
            self.write(path, "")
        for name, runner in doc_blocks.RUNNERS.items():
            self.write(runner, self.read(runner) + f"doc_block {name} somewhere.md\n")
            self.write("docs/deploy.md", self.read("docs/deploy.md") + f"<!-- {name} -->\n```sh\necho {name}\n```\n<!-- /{name} -->\n")

    def tearDown(self):
        self.directory.cleanup()

    def write(self, path, text):
        os.makedirs(os.path.dirname(os.path.join(self.root, path)) or self.root, exist_ok=True)
        with open(os.path.join(self.root, path), "w", encoding="utf-8") as file:
            file.write(text)

    def read(self, path):
        return doc_blocks.read(self.root, path) if os.path.exists(os.path.join(self.root, path)) else ""

    def test_every_block_marked_and_run_passes(self):
        self.write("README.md", "<!-- swift:hello -->\n```swift\nprint(1)\n```\n<!-- /swift:hello -->\n```text\nlayout\n```\n")
        self.assertEqual(doc_blocks.audit(self.root), [])

    def test_an_unmarked_shell_block_is_refused(self):
        self.write("docs/scaling.md", "Run:\n\n```sh\nstratus migrate\n```\n")
        self.assertEqual(len(doc_blocks.audit(self.root)), 1)
        self.assertIn("docs/scaling.md:3", doc_blocks.audit(self.root)[0])

    def test_an_unmarked_swift_block_and_a_block_without_a_language_are_refused(self):
        self.write("docs/sdk.md", "```swift\nlet x = 1\n```\n```\nwhat\n```\n")
        problems = doc_blocks.audit(self.root)
        self.assertEqual(len(problems), 2, problems)

    def test_a_package_manifest_nothing_loads_is_refused(self):
        self.write("docs/getting-started.md", "<!-- swift-manifest:manifest -->\n```swift\nlet package = Package()\n```\n<!-- /swift-manifest:manifest -->\n")
        self.assertIn("does not load the Package.swift manifest", " ".join(doc_blocks.audit(self.root)))
        self.write(doc_blocks.MANIFEST_RUNNER, self.read(doc_blocks.MANIFEST_RUNNER) + "doc_block swift-manifest:manifest docs/getting-started.md\n")
        self.assertEqual(doc_blocks.audit(self.root), [])

    def test_a_link_to_a_missing_file_or_heading_is_refused(self):
        self.write("docs/deploy.md", self.read("docs/deploy.md") + "\n## Behind a reverse proxy\n")
        self.write("README.md", "[ok](docs/deploy.md#behind-a-reverse-proxy) [web](https://example.com)\n")
        self.assertEqual(doc_blocks.audit(self.root), [])
        self.write("README.md", "[gone](docs/gone.md) [heading](docs/deploy.md#nginx)\n")
        problems = " ".join(doc_blocks.audit(self.root))
        self.assertIn("docs/gone.md leads nowhere", problems)
        self.assertIn("docs/deploy.md#nginx names no heading", problems)

    def test_a_block_nothing_runs_is_refused(self):
        self.write("docs/operations.md", "<!-- mystery -->\n```sh\nrm -rf /\n```\n<!-- /mystery -->\n")
        self.assertIn("nothing runs the block mystery", " ".join(doc_blocks.audit(self.root)))

    def test_a_runner_that_does_not_run_its_block_is_refused(self):
        self.write(doc_blocks.RUNNERS["backup"], "echo nothing\n")
        self.assertIn("does not run the block backup", " ".join(doc_blocks.audit(self.root)))

    def test_swift_statements_become_a_function_with_the_test_server(self):
        self.write("README.md", '<!-- swift:first-app -->\n```swift\nimport StratusClient\n\nlet c = Container(baseURL: "http://127.0.0.1:8080", apiToken: "YOUR-API-TOKEN")\nlet d = try DatabaseQueue(path: "notes.sqlite")\n```\n<!-- /swift:first-app -->\n')
        generated = doc_blocks.generated(self.root)["firstApp.swift"]
        self.assertIn("import StratusClient\n\nextension GuideBlocks {\n    static func firstApp(_ guide: Guide) async throws {\n", generated)
        self.assertIn('let c = Container(baseURL: guide.baseURL, apiToken: guide.apiToken)', generated)
        self.assertIn('DatabaseQueue(path: guide.file("notes.sqlite"))', generated)

    def test_a_swift_file_is_kept_whole_without_the_app_import(self):
        self.write("docs/getting-started.md", "<!-- swift-file:notes-test -->\n```swift\nimport Testing\n@testable import MyNotes\n\n@Test func t() {}\n```\n<!-- /swift-file:notes-test -->\n")
        generated = doc_blocks.generated(self.root)["notesTest.swift"]
        self.assertTrue(generated.endswith("import Testing\n\n@Test func t() {}\n"), generated)

    def test_check_reports_generated_code_out_of_date(self):
        self.write("README.md", "<!-- swift:a -->\n```swift\nprint(1)\n```\n<!-- /swift:a -->\n")
        self.assertEqual(doc_blocks.generate(self.root, check=False), [])
        self.assertEqual(doc_blocks.generate(self.root, check=True), [])
        self.write("README.md", "<!-- swift:a -->\n```swift\nprint(2)\n```\n<!-- /swift:a -->\n")
        self.assertEqual(len(doc_blocks.generate(self.root, check=True)), 1)


if __name__ == "__main__":
    unittest.main()
