#!/usr/bin/env python3
"""Prints the README's benchmark summary from the JSON that `ErrandBenchmarks --json` writes.

    scripts/bench-summary.py run.json [more.json ...]     one table: every row of every file
    scripts/bench-summary.py --before old.json --after new.json [more-new.json ...]
                                                         the same table, before beside after
    scripts/bench-summary.py --pool run1.json run2.json [run3.json ...]
                                                         runs of one command, cell by cell
    scripts/bench-summary.py --summary --pool run1.json run2.json [...]
                                                         the first table, of the pooled medians
    scripts/bench-summary.py --summary --before old1.json old2.json --after new1.json new2.json
                                                         before beside after, each side's runs pooled

A row of the table gathers the cells (requests in flight; callback and async) of one scenario,
payload and target: the median of the cells' wall ratios with their range, the same for the CPU
ratios, the target and how many cells meet it.

--pool reads repeated runs of the same command on the same commit, for a machine whose other
load moves single runs by more than the margins judged: each cell with its wall and CPU ratio in
every run, their median over the runs, and whether that median meets the cell's target.
Standard library only.

"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import OrderedDict

# What each scenario compares, in the words of the README.
COMPARED = {
    "transport": "`URLSessionDispatcher` + `execute` vs raw `URLSession` + `JSONDecoder` (req/s)",
    "full-stack": "every policy stacked vs raw `URLSession` + `JSONDecoder` (req/s)",
    "flight-recorder": "full stack + flight recorder vs the full stack (req/s)",
    "in-memory": "`InMemoryDispatcher` `execute` vs `JSONDecoder` alone (time)",
    "cache-hit": "fresh cache hit `execute` vs `JSONDecoder` alone (time)",
}


# The transport's main baseline; its other baselines are sessions as apps make them.
MAIN_TRANSPORT_BASELINE = "URLSession + JSONDecoder"


def is_app_baseline(scenario: str, baseline: str) -> bool:
    return scenario == "transport" and baseline != MAIN_TRANSPORT_BASELINE


def compared(scenario: str, baseline: str) -> str:
    if is_app_baseline(scenario, baseline):
        return f"`URLSessionDispatcher` + `execute` vs `{baseline}`, as apps write it (req/s)"
    if scenario == "flight-recorder":
        return f"{baseline} + flight recorder vs the {baseline} (req/s)"
    return COMPARED[scenario]


def payload_of(row: dict) -> str:
    return row["label"].split(" ", 1)[0]


def load_rows(paths: list[str]) -> list[dict]:
    rows: list[dict] = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            rows.extend(json.load(handle)["rows"])
    return rows


def group(rows: list[dict]) -> "OrderedDict[tuple, list[dict]]":
    groups: OrderedDict[tuple, list[dict]] = OrderedDict()
    for row in rows:
        if row["scenario"] not in COMPARED:
            continue
        key = (row["scenario"], payload_of(row), row["baselineName"], row.get("target") or "")
        groups.setdefault(key, []).append(row)
    return groups


def ratios(cells: list[dict], cpu: bool) -> list[float]:
    if cpu:
        return [c["cpu"]["ratio"]["median"] for c in cells if c.get("cpu")]
    return [c["ratio"]["median"] for c in cells]


def span(values: list[float]) -> str:
    if not values:
        return "–"
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{mid:.2f}× ({low:.2f}–{high:.2f})"


def met(cells: list[dict]) -> str:
    if not any(c.get("target") for c in cells):
        return "–"
    return f"{sum(1 for c in cells if c.get('met'))} of {len(cells)}"


def in_flight(cells: list[dict]) -> str:
    counts = OrderedDict()
    for cell in cells:
        parts = cell["label"].split("·")
        if len(parts) > 1:
            counts[parts[1].strip().split(" ")[0]] = True
    return (", ".join(counts) + " in flight") if counts else "–"


def single(rows: list[dict]) -> None:
    print("| scenario | compared | payload | cells | wall ratio | CPU ratio | target | met |")
    print("|---|---|---|---|---|---|---|---|")
    for (scenario, payload, baseline, target), cells in group(rows).items():
        print(
            f"| {scenario} | {compared(scenario, baseline)} | {payload} | {in_flight(cells)} | "
            f"{span(ratios(cells, False))} | {span(ratios(cells, True))} | {target} | {met(cells)} |"
        )


def cell_key(row: dict) -> tuple:
    # One cell of a run: the same case and Errand variant against the same baseline, whatever
    # its target was in that run.
    return (row["scenario"], row["label"], row["variant"], row["baselineName"])


def side_by_side(before: list[dict], after: list[dict]) -> None:
    earlier = {cell_key(r): r for r in before}
    print("| scenario | payload | cells | wall before | wall after | CPU before | CPU after | target | met before → after |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (scenario, payload, baseline, target), cells in group(after).items():
        previous = [earlier[cell_key(c)] for c in cells if cell_key(c) in earlier]
        name = f"transport vs `{baseline}`" if is_app_baseline(scenario, baseline) else scenario
        print(
            f"| {name} | {payload} | {in_flight(cells)} | {span(ratios(previous, False))} | "
            f"{span(ratios(cells, False))} | {span(ratios(previous, True))} | "
            f"{span(ratios(cells, True))} | {target} | "
            f"{met(previous) if previous else '–'} → {met(cells)} |"
        )


def meets(value: float, target: str) -> bool | None:
    # Targets read "≥ 0.97×", "≤ 1.25×" or "≤ 60 ns/op"; others ("≤ baseline + 2.0 MiB") are
    # not judged here.
    parts = target.split(" ")
    if len(parts) < 2 or parts[0] not in ("≥", "≤"):
        return None
    try:
        bound = float(parts[1].rstrip("×").replace(",", ""))
    except ValueError:
        return None
    return value >= bound if parts[0] == "≥" else value <= bound


def cells_of(runs: list[list[dict]]) -> "OrderedDict[tuple, list[dict]]":
    """Each cell's rows, one a run that has it, in the order the cells first appear."""
    cells: OrderedDict[tuple, list[dict]] = OrderedDict()
    for rows in runs:
        for row in rows:
            cells.setdefault(cell_key(row), []).append(row)
    return cells


def pooled(runs: list[list[dict]]) -> None:
    cells = cells_of(runs)
    # Three decimals for the medians, so that one read as 0.97× is not judged below 0.97×. A
    # target set in absolute terms (ns per resolve) is judged on Errand's own figure, shown in
    # the wall columns in its unit; a cell is judged by the target of the last run that has it.
    print(f"Each cell's ratio in each of {len(runs)} runs, then the median over the runs.")
    print()
    print("| scenario | case | Errand | baseline | wall, run by run | wall | CPU, run by run | CPU | target | pooled |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (scenario, label, variant, baseline), rows in cells.items():
        target = rows[-1].get("target") or ""
        absolute = bool(target) and not target.endswith("×")
        walls = [r["errand"]["median"] for r in rows] if absolute else ratios(rows, False)
        cpus = ratios(rows, True)
        wall = statistics.median(walls)
        verdict = meets(wall, target) if target else None
        shown = f"{wall:.3g} {rows[-1].get('unit', '')}" if absolute else f"{wall:.3f}×"
        cpu = f"{statistics.median(cpus):.3f}×" if cpus else "–"
        print(
            f"| {scenario} | {label} | {variant} | {baseline} | "
            f"{', '.join(f'{w:.3g}' if absolute else f'{w:.2f}' for w in walls)} | {shown} | "
            f"{', '.join(f'{c:.2f}' for c in cpus) or '–'} | {cpu} | {target} | "
            f"{'' if verdict is None else 'met' if verdict else 'MISSED'} |"
        )


def pooled_cells(runs: list[list[dict]]) -> list[dict]:
    """One row a cell, whose ratios are the medians over the runs that have the cell, and which
    is judged met on them: rows for ``single``, so that its table summarises repeated runs."""
    summary: list[dict] = []
    for rows in cells_of(runs).values():
        cell = dict(rows[-1])
        cell["ratio"] = {"median": statistics.median(ratios(rows, False))}
        cpus = ratios(rows, True)
        cell["cpu"] = {"ratio": {"median": statistics.median(cpus)}} if cpus else None
        target = cell.get("target") or ""
        cell["met"] = bool(target) and meets(cell["ratio"]["median"], target) is True
        summary.append(cell)
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="JSON written by ErrandBenchmarks --json")
    parser.add_argument("--before", nargs="+", help="the earlier run's JSON files")
    parser.add_argument("--after", nargs="+", help="the later run's JSON files")
    parser.add_argument("--pool", nargs="+", help="JSON files of runs of one command, pooled cell by cell")
    parser.add_argument(
        "--summary",
        action="store_true",
        help="with --pool: the one-run table of the pooled medians; with --before and --after: "
        "each side's runs pooled",
    )
    arguments = parser.parse_args()
    if arguments.summary and not (arguments.pool or arguments.before):
        parser.error("--summary goes with --pool, or with --before and --after")
    if arguments.pool:
        if arguments.files or arguments.before or arguments.after or len(arguments.pool) < 2:
            parser.error("--pool takes two runs or more, without other files")
        runs = [load_rows([path]) for path in arguments.pool]
        if arguments.summary:
            single(pooled_cells(runs))
        else:
            pooled(runs)
    elif arguments.before or arguments.after:
        if not (arguments.before and arguments.after) or arguments.files:
            parser.error("--before and --after go together, without other files")
        if arguments.summary:
            side_by_side(
                pooled_cells([load_rows([path]) for path in arguments.before]),
                pooled_cells([load_rows([path]) for path in arguments.after]),
            )
        else:
            side_by_side(load_rows(arguments.before), load_rows(arguments.after))
    elif arguments.files:
        single(load_rows(arguments.files))
    else:
        parser.error("give one or more JSON files, or --before and --after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
