#!/usr/bin/env python3
"""Fails when the hosted workflow names a scheme the package does not have, or a destination
platform it does not declare: a renamed product would otherwise break the Apple jobs unseen.

Schemes: each `-scheme NAME` (and each name in a `for scheme in ...` list) must be a library
product of Package.swift, or the package's own `<name>-Package`. Destinations: each `platform=X
Simulator` (and each matrix entry) must be a platform Package.swift declares. Xcode: the pinned
`Xcode_X.app` must be one recorded below as coming with its simulator runtimes on the runner image,
and the `RUNTIME` the simulator is picked by must be that version's.

Usage: workflow-check.py [WORKFLOW]   (exit 1 and one line per finding when any)
"""
import pathlib
import re
import sys

# Xcode versions the macos-26 runner image installs with their simulator runtimes (runtimes 26.2,
# 26.4 and 26.5 on every platform in May 2026: BeeSwift #787's `simctl list runtimes`). Not 26.0,
# 26.0.1 or 26.1: the image has no runtime for them (runner-images #13575, #13875; capture-ios #213).
XCODES_WITH_RUNTIMES = {"26.2", "26.4", "26.5"}

def main(workflow_path):
    manifest = pathlib.Path("Package.swift").read_text(encoding="utf-8")
    products = set(re.findall(r'\.library\(name:\s*"([^"]+)"', manifest))
    package = re.search(r'Package\(\s*name:\s*"([^"]+)"', manifest)
    if package:
        products.add(package.group(1) + "-Package")
    declared = {name for name in re.findall(r"\.(iOS|macOS|tvOS|watchOS|visionOS)\(\.v", manifest)}
    workflow = pathlib.Path(workflow_path).read_text(encoding="utf-8")
    schemes = set(re.findall(r'-scheme\s+"?([A-Za-z][\w-]*)"?', workflow))
    for listed in re.findall(r"for scheme in ([^;]+);", workflow):
        schemes |= set(listed.split())
    found = [f"{workflow_path}: scheme {s} is not a library product of Package.swift" for s in sorted(schemes - products)]
    platforms = set(re.findall(r"(iOS|tvOS|watchOS|visionOS|macOS) Simulator", workflow))
    found += [f"{workflow_path}: {p} is not a platform Package.swift declares" for p in sorted(platforms - declared)]
    for version in re.findall(r"Xcode_([\d.]+)\.app", workflow):
        if version not in XCODES_WITH_RUNTIMES:
            found.append(f"{workflow_path}: Xcode {version} is not recorded as carrying simulator runtimes on the image")
        elif f'RUNTIME: "{version.replace(".", "-")}"' not in workflow:
            found.append(f"{workflow_path}: RUNTIME is not Xcode {version}'s ({version.replace('.', '-')})")
    for finding in found:
        print(finding)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ".github/workflows/ci.yml"))
