"""Tests of the benchmark table and its regression guard (scripts/lib/bench_results.py), fed made-up
logs, tables and targets files. Run: python3 -m unittest discover -s scripts/lib -p 'test_*.py'."""
import io
import os
import tempfile
import textwrap
import unittest
from contextlib import redirect_stdout

import bench_results

TARGETS = textwrap.dedent("""\
    # comment
    rate_per_s        higher  >= 100
    latency_ms        lower   <= 5
    baseline_per_s    higher
    ratio_vs_base     higher  >= 0.5
    """)

# A table in the format before min/median/max: one `value` column.
OLD_SINGLE_VALUE_TABLE = textwrap.dedent("""\
    # Benchmark results

    | scenario | figure | value | target | met |
    | --- | --- | --- | --- | --- |
    | s | `rate_per_s` | 200 | >= 100 | yes |
    | s | `latency_ms` | 2.00 | <= 5 | yes |
    | s | `baseline_per_s` | 1000 | | |
    """)


def new_table(rows):
    lines = ["| scenario | figure | min | median | max | runs | target | met in every run | ratio of (medians) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    lines += [f"| s | `{name}` | {low} | {mid} | {high} | 3 | | | |" for name, (low, mid, high) in rows.items()]
    return "\n".join(lines) + "\n"


class Workspace(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)

    def write(self, name, text):
        path = os.path.join(self.directory.name, name)
        with open(path, "w") as file:
            file.write(text)
        return path

    def targets(self, text=TARGETS):
        return bench_results.read_targets(self.write("targets.txt", text))


class CompareTests(Workspace):
    def verdicts(self, old_text, new_text):
        rows, count = bench_results.compare(self.targets(), bench_results.parse_table(old_text),
                                            bench_results.parse_table(new_text))
        return {name: verdict for name, _, _, _, _, verdict in rows}, count

    def test_a_drop_beyond_the_spread_is_a_regression(self):
        verdicts, count = self.verdicts(OLD_SINGLE_VALUE_TABLE, new_table({"rate_per_s": (150, 160, 170)}))
        self.assertEqual(verdicts["rate_per_s"], "REGRESSION")
        self.assertEqual(count, 1)

    def test_a_drop_within_this_runs_spread_is_not(self):
        verdicts, count = self.verdicts(OLD_SINGLE_VALUE_TABLE, new_table({"rate_per_s": (120, 190, 230)}))
        self.assertEqual(verdicts["rate_per_s"], "within spread")
        self.assertEqual(count, 0)

    def test_the_older_tables_spread_counts_too(self):
        old = new_table({"rate_per_s": (100, 200, 260)})
        verdicts, _ = self.verdicts(old, new_table({"rate_per_s": (60, 61, 62)}))
        self.assertEqual(verdicts["rate_per_s"], "within spread")  # 139 below, spread 160
        verdicts, _ = self.verdicts(old, new_table({"rate_per_s": (30, 31, 32)}))
        self.assertEqual(verdicts["rate_per_s"], "REGRESSION")     # 169 below, spread 160

    def test_lower_is_better_where_the_targets_say_so(self):
        verdicts, count = self.verdicts(OLD_SINGLE_VALUE_TABLE, new_table({"latency_ms": (2.9, 3.0, 3.1)}))
        self.assertEqual(verdicts["latency_ms"], "REGRESSION")
        verdicts, count = self.verdicts(OLD_SINGLE_VALUE_TABLE, new_table({"latency_ms": (0.9, 1.0, 1.1)}))
        self.assertEqual(verdicts["latency_ms"], "better")
        self.assertEqual(count, 0)

    def test_a_baseline_that_got_slower_is_marked_as_well(self):
        verdicts, _ = self.verdicts(OLD_SINGLE_VALUE_TABLE, new_table({"baseline_per_s": (500, 510, 520)}))
        self.assertEqual(verdicts["baseline_per_s"], "REGRESSION")

    def test_figures_without_a_direction_or_absent_from_one_table_are_not_judged(self):
        verdicts, count = self.verdicts(new_table({"unknown": (1, 1, 1), "rate_per_s": (200, 200, 200)}),
                                        new_table({"unknown": (9, 9, 9), "new_figure": (1, 1, 1)}))
        self.assertEqual(verdicts, {"unknown": "no direction"})
        self.assertEqual(count, 0)

    def test_the_command_exits_1_and_counts_regressions(self):
        old = self.write("old.md", OLD_SINGLE_VALUE_TABLE)
        new = self.write("new.md", new_table({"rate_per_s": (10, 11, 12), "latency_ms": (9, 9, 9)}))
        targets = self.write("targets.txt", TARGETS)
        output = io.StringIO()
        with redirect_stdout(output):
            status = bench_results.main(["compare", "--targets", targets, old, new])
        self.assertEqual(status, 1)
        self.assertIn("regressions: 2", output.getvalue())
        self.assertIn("| `rate_per_s` | 200 | 11 | -94% |", output.getvalue())


class TableTests(Workspace):
    def test_minimum_median_maximum_targets_met_and_both_sides_of_a_ratio(self):
        for run, (rate, base, ratio) in enumerate([(90, 1000, 0.4), (120, 1100, 0.6), (130, 900, 0.7)], 1):
            self.write(f"s.{run}.txt", f"noise\nfigure rate_per_s {rate}\nfigure baseline_per_s {base}\n"
                                       f"figure ratio_vs_base {ratio:.2f}\nratio ratio_vs_base rate_per_s baseline_per_s\n")
        text = bench_results.table(self.targets(), self.directory.name, 3, ["s"])
        rows = {line.split("|")[2].strip(): [cell.strip() for cell in line.split("|")[1:-1]]
                for line in text.splitlines()[2:]}
        self.assertEqual(rows["`rate_per_s`"][2:8], ["90", "120", "130", "3", ">= 100", "edge (2/3)"])
        self.assertEqual(rows["`baseline_per_s`"][2:5], ["900", "1000", "1100"])
        self.assertEqual(rows["`ratio_vs_base`"][2:5], ["0.40", "0.60", "0.70"])
        self.assertEqual(rows["`ratio_vs_base`"][7], "edge (2/3)")
        self.assertEqual(rows["`ratio_vs_base`"][8], "`rate_per_s` 120 / `baseline_per_s` 1000")
        # The table it writes reads back for the next comparison.
        self.assertEqual(bench_results.parse_table(text)["rate_per_s"], (90, 120, 130))

    def test_met_in_every_run_or_in_none(self):
        for run, latency in enumerate([1.0, 2.0], 1):
            self.write(f"s.{run}.txt", f"figure latency_ms {latency:.2f}\nfigure rate_per_s 5\n")
        text = bench_results.table(self.targets(), self.directory.name, 2, ["s"])
        self.assertIn("| s | `latency_ms` | 1.00 | 2.00 | 2.00 | 2 | <= 5 | yes |", text)
        self.assertIn("| s | `rate_per_s` | 5 | 5 | 5 | 2 | >= 100 | no |", text)


class TargetRuleTests(Workspace):
    def problems(self, new_text):
        return bench_results.loosened(self.targets(), bench_results.read_targets(self.write("new.txt", new_text)))

    def test_tightening_and_adding_are_allowed(self):
        self.assertEqual(self.problems(TARGETS.replace(">= 100", ">= 120").replace("<= 5", "<= 4")
                                       + "extra_ms lower <= 1\n"), [])

    def test_loosening_dropping_or_turning_around_is_refused(self):
        self.assertEqual(self.problems(TARGETS.replace(">= 100", ">= 80")), ["rate_per_s: target >= 100 loosened to >= 80"])
        self.assertEqual(self.problems(TARGETS.replace("<= 5", "<= 6")), ["latency_ms: target <= 5 loosened to <= 6"])
        self.assertEqual(self.problems(TARGETS.replace("latency_ms        lower   <= 5", "latency_ms lower")),
                         ["latency_ms: target <= 5 dropped"])
        self.assertEqual(self.problems(TARGETS.replace("baseline_per_s    higher", "")), ["baseline_per_s: dropped"])
        self.assertEqual(self.problems(TARGETS.replace("baseline_per_s    higher", "baseline_per_s lower")),
                         ["baseline_per_s: direction changed from higher to lower"])

    def test_the_published_targets_file_reads(self):
        path = os.path.join(os.path.dirname(__file__), "..", "..", "Benchmarks", "targets.txt")
        figures = bench_results.read_targets(path)
        self.assertEqual(figures["push_p50_ms_1000"].target, ("<=", 5.0))
        self.assertEqual(figures["asset_download_vs_disk"].better, "higher")


if __name__ == "__main__":
    unittest.main()
