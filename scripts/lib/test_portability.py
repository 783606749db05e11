"""Tests of the portability checker (scripts/lib/portability.py) on samples with and without
violations. Run: python3 -m unittest discover -s scripts/lib -p 'test_*.py'."""
import textwrap
import unittest

from portability import violations


def check(text, allowed=True):
    return violations("Sample.swift", textwrap.dedent(text), {"Sample.swift"} if allowed else set())


class PortabilityTests(unittest.TestCase):
    def test_the_mailer_as_it_was_is_refused(self):
        # The SMTP mailer before its rewrite: a guarded import, then Glibc calls outside the guard.
        problems = check("""\
            import Foundation
            #if canImport(Glibc)
            import Glibc
            #endif
            struct Connection {
                init() {
                    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
                    let written = send(descriptor, base, count, Int32(MSG_NOSIGNAL))
                    Glibc.close(descriptor)
                }
            }
            """)
        self.assertEqual([p.split(": ", 1)[0] for p in problems], ["Sample.swift:7", "Sample.swift:8", "Sample.swift:9"])
        self.assertIn("outside a Linux-only #if branch", problems[0])

    def test_guarded_branches_pass(self):
        self.assertEqual(check("""\
            #if canImport(Glibc)
            import Glibc
            let flag = MSG_NOSIGNAL
            #elseif canImport(Darwin)
            import Darwin
            #endif
            #if canImport(Darwin)
            let limit = getrlimit(RLIMIT_NOFILE, &value)
            #else
            let limit = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &value)
            let status = try String(contentsOfFile: "/proc/self/status")
            #endif
            #if os(Linux)
            Glibc.close(descriptor)
            #endif
            """), [])

    def test_the_apple_branch_and_after_the_guard_are_not_guarded(self):
        problems = check("""\
            #if canImport(Glibc)
            let a = 1
            #else
            Glibc.close(descriptor)
            #endif
            #if canImport(Darwin)
            let descriptor = epoll_create1(0)
            #endif
            let path = "/proc/self/exe"
            """)
        self.assertEqual([p.split(": ", 1)[0] for p in problems], ["Sample.swift:4", "Sample.swift:7", "Sample.swift:9"])

    def test_guarded_code_belongs_in_an_allowed_file(self):
        problems = check("""\
            #if canImport(Glibc)
            import Glibc
            #endif
            """, allowed=False)
        self.assertEqual(len(problems), 1)
        self.assertIn("not on the allow-list", problems[0])

    def test_comments_do_not_count(self):
        self.assertEqual(check("""\
            /// Calls `Glibc.close` on Linux.
            let x = 1 // MSG_NOSIGNAL is Linux's
            """), [])


if __name__ == "__main__":
    unittest.main()
