"""The storage seam's bars (docs/architecture.md, "The seam's bars"), checked on the source tree.

1. No store protocol has more than 15 requirements.
2. Nothing in StratusServer imports a driver's library or names a driver type: the drivers are targets of
   their own (Sources/StratusSQLite, Sources/StratusPostgreSQL), which the server's core does not depend on.
3. The two drivers together have at most 2,972 lines and at most 45% of all storage lines (theirs and
   StratusServer's Storage/).
4. No wall-clock read (`Date()`, `Date.now`, a static `now()`) in StratusServer or the drivers outside
   ServerClock.swift and the access log's timestamp.
5. docs/architecture.md states each bar, and the drivers' figures as this script measures them.

Prints each bar with its figure; exits 1 when one is broken. `--root` checks another tree (its tests
break a copy on purpose).
"""
import argparse
import pathlib
import re
import sys

MAX_REQUIREMENTS = 15
MAX_DRIVER_LINES = 2972
MAX_DRIVER_SHARE = 0.45
DRIVER_LIBRARIES = ("GRDB", "PostgresNIO", "SQLite3", "_PostgresNIO")
DRIVER_TYPES = ("SQLiteStorage", "SQLiteTransaction", "SQLiteSchema", "PostgresStorage", "PostgresTransaction",
                "PostgresSchema", "DatabaseQueue", "DatabasePool", "PostgresConnection", "PostgresClient", "PSQLError")
CLOCK_FILE = "Configuration/ServerClock.swift"
# The access log stamps each line, and the console's recent requests with it, with the system's time.
CLOCK_EXEMPT = ("Observability/AccessLog.swift", "Observability/RecentRequests.swift")
CLOCK_READ = re.compile(r"\bDate\(\)|\bDate\.now\b|static func now\(")
REQUIREMENT = re.compile(r"^\s+(?:static\s+)?(?:func|var|subscript|init|associatedtype)\b")


def code_lines(text):
    """The lines of `text` without doc comments and comments (they are not requirements or reads)."""
    return [line for line in text.splitlines() if not line.lstrip().startswith("//")]


def protocols(text):
    """(name, requirement count) of each protocol declared in `text`."""
    found = []
    lines = code_lines(text)
    for index, line in enumerate(lines):
        match = re.match(r"^(?:package |public )?protocol (\w+)", line)
        if not match:
            continue
        depth, count = 0, 0
        for body in lines[index:]:
            if depth == 1 and REQUIREMENT.match(body):
                count += 1
            depth += body.count("{") - body.count("}")
            if depth == 0 and "}" in body:
                break
        found.append((match.group(1), count))
    return found


def check(root):
    server = root / "Sources/StratusServer"
    storage = server / "Storage"
    drivers_dirs = [root / "Sources/StratusSQLite", root / "Sources/StratusPostgreSQL"]
    broken = []

    def bar(ok, text):
        print(("ok      " if ok else "BROKEN  ") + text)
        if not ok:
            broken.append(text)

    largest = ("", 0)
    for path in sorted(storage.rglob("*.swift")) + [p for d in drivers_dirs for p in sorted(d.rglob("*.swift"))]:
        for name, count in protocols(path.read_text()):
            if count > largest[1]:
                largest = (name, count)
            if count > MAX_REQUIREMENTS:
                bar(False, f"{name} ({path.relative_to(root)}) has {count} requirements (at most {MAX_REQUIREMENTS})")
    bar(largest[1] <= MAX_REQUIREMENTS, f"store protocols: the largest, {largest[0]}, has {largest[1]} requirements (at most {MAX_REQUIREMENTS})")

    above = []
    for path in sorted(server.rglob("*.swift")):
        text = "\n".join(code_lines(path.read_text()))
        for library in DRIVER_LIBRARIES:
            if re.search(rf"^import {library}\b", text, re.M):
                above.append(f"{path.relative_to(root)} imports {library}")
        for name in DRIVER_TYPES:
            if re.search(rf"\b{name}\b", text):
                above.append(f"{path.relative_to(root)} names {name}")
    for item in above:
        bar(False, item)
    bar(not above, "above the seam: no driver library imported, no driver type named in StratusServer")

    drivers = sum(len(p.read_text().splitlines()) for d in drivers_dirs for p in d.rglob("*.swift"))
    total = drivers + sum(len(p.read_text().splitlines()) for p in storage.rglob("*.swift"))
    share = drivers / total if total else 0
    bar(drivers <= MAX_DRIVER_LINES, f"drivers: {drivers:,} lines (at most {MAX_DRIVER_LINES:,})")
    bar(share <= MAX_DRIVER_SHARE, f"drivers: {share:.1%} of the {total:,} storage lines (at most {MAX_DRIVER_SHARE:.0%})")

    reads = []
    for path in sorted(server.rglob("*.swift")) + [p for d in drivers_dirs for p in sorted(d.rglob("*.swift"))]:
        relative = path.relative_to(server).as_posix() if server in path.parents else ""
        if relative == CLOCK_FILE or relative in CLOCK_EXEMPT:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.lstrip().startswith("//") and CLOCK_READ.search(line):
                reads.append(f"{path.relative_to(root)}:{number} reads the wall clock: {line.strip()}")
    for item in reads:
        bar(False, item)
    bar(not reads, f"clock: no wall-clock read outside {CLOCK_FILE} and the access log")

    page = (root / "docs/architecture.md").read_text()
    for figure in (f"{MAX_REQUIREMENTS} requirements", f"{MAX_DRIVER_LINES:,} lines", f"{MAX_DRIVER_SHARE:.0%}", "ServerClock"):
        bar(figure in page, f"docs/architecture.md states the bar '{figure}'")
    measured = f"today {drivers:,} lines, {share:.0%}"
    bar(measured in page, f"docs/architecture.md gives today's figures '{measured}'")
    return broken


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parents[2], type=pathlib.Path)
    broken = check(parser.parse_args().root)
    if broken:
        print(f"{len(broken)} bar(s) broken")
        sys.exit(1)


if __name__ == "__main__":
    main()
