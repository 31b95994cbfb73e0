#!/usr/bin/env python3
"""Reads the harness's percentile exports and prints each benchmark's median beside its baseline."""
import pathlib
import re
import sys

SCALES = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}
TIME_UNITS = {"ns": 1e-6, "μs": 1e-3, "us": 1e-3, "ms": 1, "s": 1e3}
# Each row's baseline: the first of its number's names that its group has.
BASELINES = {"1": ["queue.async"], "2": ["queue.async"], "3": ["queue.async"], "5": ["raw sqlite3"], "6": ["raw sqlite3 commits", "bare POSTs"],
             "7": ["GCD"], "8": ["GCD"], "9": ["raw sqlite3"], "10": ["bare GET"],
             "20": ["one file of 100 MB"]}
TARGETS = {"1": 1.5, "2": 1.5, "3": 2.0, "5": 1.3, "20": 1.5}


def median(path):
    lines = path.read_text().splitlines()
    header = lines[0].split("\t")[1]
    values = {int(float(row.split("\t")[0])): float(row.split("\t")[1]) for row in lines[1:] if row.strip()}
    value = values.get(50, next(iter(values.values())))
    unit = re.findall(r"\(([^)]*)\)", header)
    unit = unit[-1] if unit else ""
    if unit in TIME_UNITS:
        return value * TIME_UNITS[unit]  # milliseconds
    return value * SCALES.get(unit, 1)


def main(folder):
    runs = {}
    for path in pathlib.Path(folder).glob("*.percentiles.tsv"):
        match = re.match(r"Current_run\.[^.]+\.(.+)\.(wallClock|mallocCountTotal|mallocBytesCount|peakMemoryResident)\.histogram", path.name)
        if not match:
            continue
        name = match.group(1).replace("___", " / ").replace("_", " ")
        runs.setdefault(name, {})[match.group(2)] = median(path)
    groups = {}
    for name, metrics in runs.items():
        group, _, implementation = name.partition(" / ")
        groups.setdefault(group, {})[implementation] = metrics
    width = max([48] + [len(group) + 3 + len(name) for group in groups for name in groups[group]])
    print(f"| {'benchmark':<{width}} | {'median':>24} | {'mallocs':>9} | {'ratio':>6} | target |")
    print(f"|{'-' * (width + 2)}|{'-' * 26}|{'-' * 11}|{'-' * 8}|--------|")
    for group in sorted(groups):
        number = group.split(" ")[0]
        implementations = groups[group]
        baseline_name = next((name for name in BASELINES.get(number, []) if name in implementations), None)
        baseline = implementations.get(baseline_name, {}).get("wallClock")
        for implementation, metrics in sorted(implementations.items(), key=lambda item: (not item[0].startswith("Promise"), item[0])):
            time = metrics.get("wallClock")
            mallocs = metrics.get("mallocCountTotal")
            bytes_ = metrics.get("mallocBytesCount")
            if time is None:
                shown = f"{bytes_:,.0f} B" if bytes_ is not None else ""
            else:
                shown = f"{time:,.2f} ms"
            peak = metrics.get("peakMemoryResident")
            if peak is not None:
                shown += f", peak {peak / 1e6:,.0f} MB"
            ratio = f"{time / baseline:.2f}x" if time is not None and baseline else ""
            is_baseline = implementation == baseline_name
            target = "" if is_baseline or number not in TARGETS or not ratio else f"≤{TARGETS[number]}x"
            print(f"| {group + ' / ' + implementation:<{width}} | {shown:>24} | {mallocs or 0:>9,.0f} | {ratio:>6} | {target:>6} |")
    memory = groups.get("4 memory", {})
    base = memory.get("pending promise, settled", {})
    one = memory.get("pending promise + 1 handler", {})
    ten = memory.get("pending promise + 10 steps", {})
    if base and one and ten:
        print()
        print(f"allocations per promise (pending, then settled): {base['mallocCountTotal']:.0f}, "
              f"{base.get('mallocBytesCount', 0):.0f} bytes")
        print(f"allocations for a handler and its promise: {one['mallocCountTotal'] - base['mallocCountTotal']:.1f}")
        print(f"allocations per chain step: {(ten['mallocCountTotal'] - base['mallocCountTotal']) / 10:.1f}, "
              f"{(ten.get('mallocBytesCount', 0) - base.get('mallocBytesCount', 0)) / 10:.0f} bytes (target ≤ 2)")
    google = groups.get("7 resolved promise, thens on a serial queue", {})
    gcd = google.get("GCD", {}).get("wallClock")
    one, three = (google.get(f"Promise, {n} then{'' if n == 1 else 's'}", {}).get("wallClock") for n in (1, 3))
    if gcd and one and three:
        print(f"google/promises' serial-queue scenario: each extra step costs {(three - one) / 2 / gcd:.2f}x "
              f"a GCD round trip (published: google/promises ~4x, PromiseKit ~10x, Hydra ~12x)")
    formatting = groups.get("5 format 10k orders", {}).get("ListOrdersPresenter", {}).get("wallClock")
    if formatting:
        print(f"formatting: {formatting * 1000 / 10_000:.2f} µs per order (target < 2)")


if __name__ == "__main__":
    main(sys.argv[1])
