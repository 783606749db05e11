#!/usr/bin/env python3
"""The benchmark table and its regression guard, for scripts/bench.sh.

  bench_results.py table --targets Benchmarks/targets.txt --logs DIR --runs N SCENARIO...
      Reads DIR/SCENARIO.K.txt (K = 1..N), the `figure NAME VALUE` and `ratio NAME NUMERATOR
      DENOMINATOR` lines each run printed, and writes the table of Benchmarks/RESULTS.md (minimum,
      median and maximum of every figure over the runs; whether its target was met in every run;
      for a ratio, the medians of the two absolute figures it divides) to standard output.

  bench_results.py compare --targets Benchmarks/targets.txt OLD.md NEW.md
      Marks every figure whose median in NEW is worse than in OLD by more than the larger of the two
      tables' spreads (maximum - minimum; a table of single values has a spread of 0). "Worse"
      follows the figure's direction in the targets file. Prints one row per figure both tables
      have, then a `regressions: N` line; exits 1 when N > 0.

  bench_results.py check-targets OLD NEW
      Exits 1, naming each, when NEW (a targets file) drops a figure of OLD, changes its direction,
      or loosens or drops its target: targets may only be tightened.

The targets file has one line per figure: `NAME higher|lower [OP BOUND]`, where OP is one of
>=, <=, <, =. Lines starting with # are comments.
"""
import argparse
import os
import statistics
import sys

OPERATORS = {
    ">=": lambda value, bound: value >= bound,
    "<=": lambda value, bound: value <= bound,
    "<": lambda value, bound: value < bound,
    "=": lambda value, bound: value == bound,
}


class Figure:
    """A figure's direction and optional target, from the targets file."""

    def __init__(self, name, better, target=None):
        if better not in ("higher", "lower"):
            raise ValueError(f"{name}: direction must be higher or lower, not {better!r}")
        if target is not None and target[0] not in OPERATORS:
            raise ValueError(f"{name}: unknown operator {target[0]!r}")
        self.name, self.better, self.target = name, better, target

    def meets(self, value):
        operator, bound = self.target
        return OPERATORS[operator](value, bound)

    def target_text(self):
        return f"{self.target[0]} {format_number(self.target[1])}" if self.target else ""


def read_targets(path):
    figures = {}
    with open(path) as file:
        for number, line in enumerate(file, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) not in (2, 4):
                raise ValueError(f"{path}:{number}: expected NAME higher|lower [OP BOUND]")
            target = (words[2], float(words[3])) if len(words) == 4 else None
            figures[words[0]] = Figure(words[0], words[1], target)
    return figures


def format_number(value):
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.0f}"


def read_run(path):
    """The figures (name → text as printed) and ratios (name → (numerator, denominator)) of one log."""
    figures, ratios = {}, {}
    with open(path, errors="replace") as file:
        for line in file:
            words = line.split()
            if len(words) == 3 and words[0] == "figure":
                figures[words[1]] = words[2]
            elif len(words) == 4 and words[0] == "ratio":
                ratios[words[1]] = (words[2], words[3])
    return figures, ratios


def decimals(text):
    return len(text.split(".", 1)[1]) if "." in text else 0


def table(targets, logs, runs, scenarios):
    rows = []
    for scenario in scenarios:
        values, texts, ratios, order = {}, {}, {}, []
        for run in range(1, runs + 1):
            figures, run_ratios = read_run(os.path.join(logs, f"{scenario}.{run}.txt"))
            ratios.update(run_ratios)
            for name, text in figures.items():
                if name not in values:
                    order.append(name)
                values.setdefault(name, []).append(float(text))
                texts[name] = text
        medians = {name: statistics.median_high(series) for name, series in values.items()}
        for name in order:
            series = values[name]
            places = decimals(texts[name])
            shown = [f"{value:.{places}f}" for value in (min(series), medians[name], max(series))]
            figure = targets.get(name)
            met = ""
            if figure and figure.target:
                passed = sum(figure.meets(value) for value in series)
                met = "yes" if passed == len(series) else "no" if passed == 0 else f"edge ({passed}/{len(series)})"
            absolute = ""
            if name in ratios:
                numerator, denominator = ratios[name]
                absolute = " / ".join(f"`{part}` {format_number(medians[part])}" if part in medians else f"`{part}` ?"
                                      for part in (numerator, denominator))
            rows.append(f"| {scenario} | `{name}` | {' | '.join(shown)} | {len(series)} | "
                        f"{figure.target_text() if figure else ''} | {met} | {absolute} |")
    header = ["| scenario | figure | min | median | max | runs | target | met in every run | ratio of (medians) |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    return "\n".join(header + rows) + "\n"


def parse_table(text):
    """name → (minimum, median, maximum) from a RESULTS.md table, old (one `value` column) or new."""
    results, columns = {}, None
    for line in text.splitlines():
        if not line.startswith("|"):
            columns = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if "figure" in cells and columns is None:
            columns = cells
            continue
        if columns is None or set(cells[0]) <= set("- :"):
            continue
        row = dict(zip(columns, cells))
        name = row.get("figure", "").strip("`")
        try:
            if "median" in row:
                results[name] = (float(row["min"]), float(row["median"]), float(row["max"]))
            elif "value" in row:
                value = float(row["value"])
                results[name] = (value, value, value)
        except ValueError:
            continue
    return results


def compare(targets, old, new):
    """Rows (name, old median, new median, change, allowed, verdict) and the count of regressions."""
    rows, regressions = [], 0
    for name, (new_min, new_median, new_max) in new.items():
        if name not in old:
            continue
        old_min, old_median, old_max = old[name]
        allowed = max(old_max - old_min, new_max - new_min)
        figure = targets.get(name)
        change = f"{(new_median - old_median) / old_median:+.0%}" if old_median else "n/a"
        if figure is None:
            verdict = "no direction"
        else:
            worse_by = old_median - new_median if figure.better == "higher" else new_median - old_median
            if worse_by > allowed:
                verdict = "REGRESSION"
                regressions += 1
            elif -worse_by > allowed:
                verdict = "better"
            else:
                verdict = "within spread"
        rows.append((name, old_median, new_median, change, allowed, verdict))
    return rows, regressions


def loosened(old, new):
    """What NEW does to OLD's figures that is not allowed: one line per figure."""
    problems = []
    for name, before in old.items():
        after = new.get(name)
        if after is None:
            problems.append(f"{name}: dropped")
        elif after.better != before.better:
            problems.append(f"{name}: direction changed from {before.better} to {after.better}")
        elif before.target and not after.target:
            problems.append(f"{name}: target {before.target_text()} dropped")
        elif before.target and after.target != before.target:
            (old_operator, old_bound), (new_operator, new_bound) = before.target, after.target
            tighter = {
                ">=": new_operator in (">=", ">") and new_bound >= old_bound,
                ">": new_operator in (">=", ">") and (new_bound > old_bound or (new_bound == old_bound and new_operator == ">")),
                "<=": new_operator in ("<=", "<", "=") and new_bound <= old_bound,
                "<": new_operator in ("<=", "<", "=") and (new_bound < old_bound or (new_bound == old_bound and new_operator == "<")),
                "=": False,
            }[old_operator]
            if not tighter:
                problems.append(f"{name}: target {before.target_text()} loosened to {after.target_text()}")
    return problems


def main(arguments):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("table")
    making.add_argument("--targets", required=True)
    making.add_argument("--logs", required=True)
    making.add_argument("--runs", type=int, required=True)
    making.add_argument("scenarios", nargs="+")
    comparing = commands.add_parser("compare")
    comparing.add_argument("--targets", required=True)
    comparing.add_argument("old")
    comparing.add_argument("new")
    checking = commands.add_parser("check-targets")
    checking.add_argument("old")
    checking.add_argument("new")
    options = parser.parse_args(arguments)
    if options.command == "check-targets":
        problems = loosened(read_targets(options.old), read_targets(options.new))
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    targets = read_targets(options.targets)
    if options.command == "table":
        sys.stdout.write(table(targets, options.logs, options.runs, options.scenarios))
        return 0
    with open(options.old) as old_file, open(options.new) as new_file:
        rows, regressions = compare(targets, parse_table(old_file.read()), parse_table(new_file.read()))
    print("| figure | last published median | this median | change | allowed (larger spread) | verdict |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, old_median, new_median, change, allowed, verdict in rows:
        mark = f"**{verdict}**" if verdict == "REGRESSION" else verdict
        print(f"| `{name}` | {format_number(old_median)} | {format_number(new_median)} | {change} | {format_number(allowed)} | {mark} |")
    print(f"\nregressions: {regressions}")
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
