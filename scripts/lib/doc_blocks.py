"""The code blocks of the README and the guides, and what runs each of them in CI.

Every fenced block of a guide with code in it is marked, on the line before its fence, with a comment
that names it, and closed by the same name after its closing fence:

    <!-- NAME -->                  a shell or nginx block, run by the script RUNNERS names
    <!-- swift:NAME -->            Swift statements: compiled into Tests/GuideTests as the body of
                                   `GuideBlocks.NAME(_ guide:)`, which a test runs against a TestCloud
    <!-- swift-file:NAME -->       a Swift file: compiled into Tests/GuideTests as it is (its tests run)
    <!-- swift-manifest:NAME -->   a Package.swift: loaded by `swift package dump-package` (check-guides.sh,
                                   which extracts it with `doc_block swift-manifest:NAME FILE`)

Other blocks must say what they hold (```text, ```json) and are not run.

In generated Swift, the server the guides run against and their file names are the test's:
"http://127.0.0.1:8080" becomes `guide.baseURL`, "iCloud.dev.stratus" `guide.containerIdentifier`,
"YOUR-API-TOKEN" `guide.apiToken`, a "NAME.sqlite" `guide.file("NAME.sqlite")`; and `@testable import MyNotes` (the guide's app module) is dropped, since
the guide's code is all in one module here.

    doc_blocks.py audit              every block is marked, every mark has its runner, and the README's
                                     and docs/'s relative links lead to a file and heading
    doc_blocks.py generate [--check] writes Tests/GuideTests/Generated/ (--check: fails if it differs)
"""
import os
import re
import sys
from dataclasses import dataclass

GUIDES = [
    "README.md",
    "docs/getting-started.md",
    "docs/sdk.md",
    "docs/examples.md",
    "docs/deploy.md",
    "docs/scaling.md",
    "docs/operations.md",
    "docs/upgrading.md",
    "docs/webhooks.md",
]

# The script that runs each shell or nginx block: it must extract the block by its name
# (`doc_block NAME FILE`, `readme_block NAME`, or check-guides.sh's `run_block NAME FILE`).
RUNNERS = {
    "quickstart": "scripts/check-quickstart.sh",
    "notes": "scripts/check-notes.sh",
    "shopping": "scripts/check-shopping.sh",
    "package": "scripts/check-package.sh",
    "proxy-serve": "scripts/check-nginx.sh",
    "nginx": "scripts/check-nginx.sh",
    "upgrade": "scripts/check-upgrading.sh",
    "tls-serve": "scripts/check-guides.sh",
    "scale-serve": "scripts/check-guides.sh",
    "copy": "scripts/check-guides.sh",
    "pg-backup": "scripts/check-guides.sh",
    "doctor": "scripts/check-guides.sh",
    "backup": "scripts/check-guides.sh",
    "export": "scripts/check-guides.sh",
    "dev-loop": "scripts/check-guides.sh",
    "console": "scripts/check-guides.sh",
    "webhook-add": "scripts/check-webhooks.sh",
    "webhook-receiver": "scripts/check-webhooks.sh",
}
# What loads each swift-manifest block (`doc_block swift-manifest:NAME FILE`).
MANIFEST_RUNNER = "scripts/check-guides.sh"
RUN_LANGUAGES = {"sh", "nginx", "python"}
SWIFT_KINDS = {"swift", "swift-file", "swift-manifest"}
QUIET_LANGUAGES = {"text", "json"}
GENERATED = "Tests/GuideTests/Generated"

FENCE = re.compile(r"^```(\S*)\s*$")
MARK = re.compile(r"^<!-- (?:(swift|swift-file|swift-manifest):)?([a-z0-9-]+) -->$")


@dataclass
class Block:
    path: str
    line: int
    language: str
    kind: str  # "run", one of SWIFT_KINDS, or "" when unmarked
    name: str
    text: str


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as file:
        return file.read()


def blocks(root, path):
    """The fenced blocks of one file, each with the mark on the line before its fence."""
    lines = read(root, path).split("\n")
    found, index = [], 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        mark = MARK.match(lines[index - 1]) if index > 0 else None
        kind, name = "", ""
        if mark:
            kind, name = (mark.group(1) or "run"), mark.group(2)
        found.append(Block(path, index + 1, fence.group(1), kind, name, "\n".join(lines[index + 1:end]) + "\n"))
        index = end + 1
    return found


def every_block(root):
    return [block for path in GUIDES for block in blocks(root, path)]


def audit(root):
    problems, names = [], {}
    for block in every_block(root):
        where = f"{block.path}:{block.line}"
        if block.name:
            if block.name in names:
                problems.append(f"{where}: the name {block.name} is taken ({names[block.name]})")
            names[block.name] = where
        if block.language in QUIET_LANGUAGES and not block.kind:
            continue
        if block.language == "swift":
            if block.kind not in SWIFT_KINDS:
                problems.append(f"{where}: a Swift block needs <!-- swift:NAME -->, <!-- swift-file:NAME --> or <!-- swift-manifest:NAME -->")
            elif block.kind == "swift-manifest" and f"doc_block swift-manifest:{block.name} " not in read(root, MANIFEST_RUNNER):
                problems.append(f"{where}: {MANIFEST_RUNNER} does not load the Package.swift {block.name}")
            continue
        if block.language in RUN_LANGUAGES:
            if block.kind != "run":
                problems.append(f"{where}: a {block.language} block needs <!-- NAME --> naming what runs it")
                continue
            runner = RUNNERS.get(block.name)
            if runner is None:
                problems.append(f"{where}: nothing runs the block {block.name} (RUNNERS in scripts/lib/doc_blocks.py)")
                continue
            script = read(root, runner)
            if not re.search(rf"(doc_block|readme_block|run_block) {re.escape(block.name)}\b", script):
                problems.append(f"{where}: {runner} does not run the block {block.name}")
            continue
        problems.append(f"{where}: a block of '{block.language or 'no language'}': say ```text or ```json, or make it a block that runs")
    for name, runner in RUNNERS.items():
        if name not in names:
            problems.append(f"RUNNERS names {name} ({runner}), which no guide has")
    return problems + broken_links(root)


def anchor(heading):
    """The anchor a Markdown heading gets (GitHub's rule: lower case, punctuation dropped, spaces to hyphens)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def broken_links(root):
    """Relative links of the README and docs/*.md to a file or heading that is not there."""
    pages = ["README.md"] + sorted(f"docs/{name}" for name in os.listdir(os.path.join(root, "docs")) if name.endswith(".md"))
    problems = []
    for page in pages:
        for link in re.findall(r"\]\(([^)\s]+)\)", read(root, page)):
            if re.match(r"[a-z]+:", link):
                continue
            path, _, fragment = link.partition("#")
            target = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            if not os.path.exists(os.path.join(root, target)):
                problems.append(f"{page}: the link {link} leads nowhere")
            elif fragment and target.endswith(".md") and fragment not in {anchor(h) for h in re.findall(r"^#+ (.*)$", read(root, target), re.M)}:
                problems.append(f"{page}: the link {link} names no heading of {target}")
    return problems


def camel(name):
    head, *rest = name.split("-")
    return head + "".join(word.capitalize() for word in rest)


def substituted(text):
    for literal, name in [('"http://127.0.0.1:8080"', "guide.baseURL"), ('"iCloud.dev.stratus"', "guide.containerIdentifier"),
                          ('"YOUR-API-TOKEN"', "guide.apiToken")]:
        text = text.replace(literal, name)
    return re.sub(r'"([A-Za-z0-9_-]+\.sqlite)"', r'guide.file("\1")', text)


def generated(root):
    """The Swift files generated from the guides: file name → contents."""
    files = {}
    for block in every_block(root):
        header = f"// Generated by scripts/lib/doc_blocks.py from {block.path} ({block.kind}:{block.name}). Do not edit:\n// change the guide and run `python3 scripts/lib/doc_blocks.py generate`.\n"
        lines = [line for line in block.text.rstrip("\n").split("\n") if line.strip() != "@testable import MyNotes"]
        if block.kind == "swift-file":
            files[f"{camel(block.name)}.swift"] = header + "\n".join(lines) + "\n"
        elif block.kind == "swift":
            imports = [line for line in lines if line.startswith("import ")]
            body = [line for line in lines if not line.startswith("import ")]
            while body and not body[0].strip():
                body.pop(0)
            indented = "\n".join(("        " + line) if line.strip() else "" for line in body)
            files[f"{camel(block.name)}.swift"] = (
                header + "\n".join(imports) + ("\n\n" if imports else "")
                + "extension GuideBlocks {\n"
                + f"    static func {camel(block.name)}(_ guide: Guide) async throws {{\n"
                + substituted(indented) + "\n    }\n}\n")
    return files


def generate(root, check):
    directory = os.path.join(root, GENERATED)
    wanted = generated(root)
    present = set(os.listdir(directory)) if os.path.isdir(directory) else set()
    stale = [name for name in sorted(present | set(wanted))
             if name not in wanted or name not in present
             or read(directory, name) != wanted[name]]
    if check:
        return [f"{GENERATED}/{name} differs from the guides: run python3 scripts/lib/doc_blocks.py generate" for name in stale]
    os.makedirs(directory, exist_ok=True)
    for name in present - set(wanted):
        os.remove(os.path.join(directory, name))
    for name, text in wanted.items():
        with open(os.path.join(directory, name), "w", encoding="utf-8") as file:
            file.write(text)
    return []


def main(arguments):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    command = arguments[0] if arguments else "audit"
    if command == "audit":
        problems = audit(root)
    elif command == "generate":
        problems = generate(root, "--check" in arguments)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
