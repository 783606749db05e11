"""Finds Linux-only code that would break a build for macOS or iOS.

usage: portability.py [--allow FILE]... PATH...

Every Swift file under the PATHs is read with its `#if` blocks: a line is guarded when an enclosing
branch holds only on Linux (`#if canImport(Glibc)`, `os(Linux)`, `canImport(Musl)` or
`canImport(FoundationNetworking)`, or the `#else` of `#if canImport(Darwin)` or `os(macOS)`).
Outside such a branch these are errors:

- importing Glibc, Musl or FoundationNetworking;
- Linux-only uses: `Glibc.` or `Musl.` qualified names, `MSG_NOSIGNAL`, `SOCK_STREAM.rawValue`
  (and the other socket types' and `RLIMIT_…`'s `.rawValue`), `epoll`, `__rlimit_resource_t`,
  and `/proc/` paths.

Inside a guarded branch they are allowed only in the files given with `--allow` (the short list of
files that hold Linux code on purpose), so that such code stays in known places. Prints each
violation as `file:line: message` and exits 1 if there is any.
"""
import os
import re
import sys

LINUX_CONDITION = re.compile(r"canImport\((Glibc|Musl|FoundationNetworking)\)|os\(Linux\)")
APPLE_CONDITION = re.compile(r"canImport\(Darwin\)|os\((macOS|iOS|tvOS|watchOS|visionOS)\)")
IMPORT = re.compile(r"^\s*(@\w+\s+)*import\s+(Glibc|Musl|FoundationNetworking)\b")
USES = [
    (re.compile(r"\b(Glibc|Musl)\."), "a Glibc-qualified name"),
    (re.compile(r"\bMSG_NOSIGNAL\b"), "MSG_NOSIGNAL (Linux only; Darwin sets SO_NOSIGPIPE)"),
    (re.compile(r"\bSOCK_(STREAM|DGRAM|RAW|SEQPACKET)\.rawValue"), "a socket type's .rawValue (an Int32 on Darwin)"),
    (re.compile(r"\bRLIMIT_\w+\.rawValue|__rlimit_resource_t"), "glibc's rlimit resource type"),
    (re.compile(r"\bepoll"), "epoll (Linux only)"),
    (re.compile(r"[\"']/proc/"), "a /proc path (Linux only)"),
]


def branch_is_linux(condition, in_else):
    """Whether a branch of `#if condition` (its `#else` when in_else) holds only on Linux."""
    if in_else:
        return bool(APPLE_CONDITION.search(condition)) and not LINUX_CONDITION.search(condition)
    if condition.startswith("!") and APPLE_CONDITION.search(condition) and "&&" not in condition and "||" not in condition:
        return True
    return bool(LINUX_CONDITION.search(condition)) and "!" not in condition


def violations(path, text, allowed):
    found = []
    stack = []  # one entry per open #if: [the condition of its current branch, whether that branch is its #else]
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        if directive:
            kind, condition = directive.group(1), directive.group(2).strip()
            if kind == "if":
                stack.append([condition, False])
            elif kind == "elseif" and stack:
                stack[-1] = [condition, False]
            elif kind == "else" and stack:
                stack[-1][1] = True
            elif kind == "endif" and stack:
                stack.pop()
            continue
        code = stripped.split("//", 1)[0] if not stripped.startswith("///") else ""
        if not code:
            continue
        guarded = any(branch_is_linux(condition, in_else) for condition, in_else in stack)
        messages = []
        if IMPORT.match(code):
            messages.append("imports a Linux-only module")
        messages += [what for pattern, what in USES if pattern.search(code)]
        for message in messages:
            if not guarded:
                found.append(f"{path}:{number}: {message} outside a Linux-only #if branch")
            elif path not in allowed:
                found.append(f"{path}:{number}: {message}, in a file not on the allow-list of files with Linux code")
    return found


def swift_files(paths):
    for root in paths:
        if os.path.isfile(root):
            yield root
            continue
        for directory, _, files in os.walk(root):
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)


def main(arguments):
    allowed, paths = set(), []
    while arguments:
        argument = arguments.pop(0)
        if argument == "--allow":
            allowed.add(arguments.pop(0))
        else:
            paths.append(argument)
    problems = []
    for path in swift_files(paths):
        with open(path, encoding="utf-8") as file:
            problems += violations(path, file.read(), allowed)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
