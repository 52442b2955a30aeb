#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The lists in the docs that a new governor, model or workload must join,
against the one place each comes from (docs/howto.md's recipes list them
under "By hand").

usage: tests/repo/doc_lists.py [--governors] [--models] [--workloads] [TOP]

TOP is the tree to read (default: the one this script is in); with no
option, every list.  Each list that differs from its one place is one line,
FILE: what is missing or extra, and exit status 1; a list that cannot be
found (its file changed shape) is one line and exit status 2.

  governors (bpf/idlescope.h, IDLESCOPE_CPUIDLE_GOVERNORS):
    docs/report-schema.md  the `governor` key's values: `none`, then each
                           governor in the table's order
    docs/kernels.md        the governors of our kernels' rows (KERNEL=6.1,
                           KERNEL=6.12): each governor named in one of them
  models (loader/models/registry.h, IDLESCOPE_MODELS):
    README.md              the shadow replay's "for every model (...)": each
                           model, in the registry's order
  workloads (workloads/*.c, workloads/suite.txt):
    workloads/README.md    the program table: a row per program
    README.md              the suites table: the `default` row counts the
                           default suite's workloads in words
    docs/devices.md        the table of events: each workload of the default
                           suite named (or matched: periodic*) in the row of
                           its EVENTS
"""
import fnmatch
import os
import re
import sys

NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
           "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
           "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]

problems = []


class Unreadable(Exception):
    pass


def read(top, path):
    with open(os.path.join(top, path)) as f:
        return f.read()


def between(text, start, end, where):
    """The text from the line holding @start up to @end (exclusive)."""
    i = text.find(start)
    if i < 0:
        raise Unreadable(f"{where}: no '{start}'")
    j = text.find(end, i + len(start))
    if j < 0:
        raise Unreadable(f"{where}: nothing ends '{start}' ('{end}')")
    return text[i:j]


def row(text, first, where):
    """The cells of the table row whose first cell holds @first."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if line.startswith("|") and len(cells) > 2 and first in cells[1]:
            return cells[1:-1]
    raise Unreadable(f"{where}: no table row '{first}'")


def governors(top):
    table = between(read(top, "bpf/idlescope.h"), "#define IDLESCOPE_CPUIDLE_GOVERNORS(X)",
                    "\n\n", "bpf/idlescope.h")
    return re.findall(r"^\s*X\(\w+,\s*(\w+),", table, re.M)


def models(top):
    table = between(read(top, "loader/models/registry.h"), "#define IDLESCOPE_MODELS(X)",
                    "\n\n", "loader/models/registry.h")
    return re.findall(r"^\s*X\(\w+,\s*([\w.-]+),", table, re.M)


def programs(top):
    names = [f[:-2] for f in os.listdir(os.path.join(top, "workloads")) if f.endswith(".c")]
    return sorted(n for n in names if n != "workload")


def compare(where, what, got, want, ordered):
    """One problem line for each name @want lacks or @got has over it."""
    missing = [n for n in want if n not in got]
    extra = [n for n in got if n not in want]
    for n in missing:
        problems.append(f"{where}: {what} does not name {n}")
    for n in extra:
        problems.append(f"{where}: {what} names {n}, which is not one")
    if ordered and not missing and not extra and got != want:
        problems.append(f"{where}: {what} is not in the order of its one place: "
                        f"{' '.join(got)}; want {' '.join(want)}")


def check_governors(top):
    table = governors(top)
    cells = row(read(top, "docs/report-schema.md"), "`governor`", "docs/report-schema.md")
    compare("docs/report-schema.md", "the `governor` row",
            re.findall(r"`([\w.-]+)`", cells[2]), ["none"] + table, True)
    text = read(top, "docs/kernels.md")
    named = set()
    for kernel in ("6.1", "6.12"):
        cells = row(text, f"`KERNEL={kernel}`", "docs/kernels.md")
        named |= set(re.findall(r"[\w.-]+", cells[2]))
    compare("docs/kernels.md", "the governors of the KERNEL=6.1 and 6.12 rows",
            [g for g in table if g in named], table, False)


def check_models(top):
    text = between(read(top, "README.md"), "for every model (", ")", "README.md")
    compare("README.md", "the shadow replay's \"for every model\" list",
            re.findall(r"`([\w.-]+)`", text), models(top), True)


def check_workloads(top):
    text = read(top, "workloads/README.md")
    rows = re.findall(r"^\| `([\w-]+)` \|", text, re.M)
    compare("workloads/README.md", "the program table", rows, programs(top), False)
    suite = [line.split() for line in read(top, "workloads/suite.txt").splitlines()
             if line.strip() and not line.startswith("#")]
    cells = row(read(top, "README.md"), "`default`", "README.md")
    default = [cols for cols in suite if len(cols) > 2 and "default" in cols[1].split(",")]
    count = len(default)
    want = NUMBERS[count] if count < len(NUMBERS) else str(count)
    if not re.search(rf"\b{want}\b", cells[1]):
        problems.append(f"README.md: the suites table's `default` row does not say "
                        f"'{want}' (workloads/suite.txt has {count} default workloads): "
                        f"{cells[1]}")
    text = read(top, "docs/devices.md")
    for name, events in ((cols[0], cols[2]) for cols in default):
        cells = row(text, f"`{events}`", "docs/devices.md")
        patterns = [w.split()[0] for w in cells[2].split(", ") if w.strip()]
        if not any(fnmatch.fnmatchcase(name, p) for p in patterns):
            problems.append(f"docs/devices.md: the `{events}` row does not name {name}")


def main(argv):
    kinds = {"--governors": check_governors, "--models": check_models,
             "--workloads": check_workloads}
    chosen = [kinds[a] for a in argv if a in kinds]
    rest = [a for a in argv if a not in kinds]
    if len(rest) > 1 or any(a.startswith("-") for a in rest):
        print(next(l for l in __doc__.splitlines() if l.startswith("usage:")), file=sys.stderr)
        return 2
    top = rest[0] if rest else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                            "..", "..")
    try:
        for check in chosen or kinds.values():
            check(top)
    except (Unreadable, OSError, IndexError) as e:
        print(f"doc_lists: {e}", file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
