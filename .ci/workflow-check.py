#!/usr/bin/env python3
"""Fails when the hosted workflow names a scheme the package does not have, or a destination
platform it does not declare: a renamed product would otherwise break the Apple jobs unseen.

Schemes: each `-scheme NAME` (and each name in a `for scheme in ...` list) must be a library
product of Package.swift. Destinations: each `platform=X Simulator` (and each matrix entry) must be
a platform Package.swift declares.

Usage: workflow-check.py [WORKFLOW]   (exit 1 and one line per finding when any)
"""
import pathlib
import re
import sys



def main(workflow_path):
    manifest = pathlib.Path("Package.swift").read_text(encoding="utf-8")
    products = set(re.findall(r'\.library\(name:\s*"([^"]+)"', manifest))
    declared = {name for name in re.findall(r"\.(iOS|macOS|tvOS|watchOS|visionOS)\(\.v", manifest)}
    workflow = pathlib.Path(workflow_path).read_text(encoding="utf-8")
    schemes = set(re.findall(r'-scheme\s+"?([A-Za-z][\w-]*)"?', workflow))
    for listed in re.findall(r"for scheme in ([^;]+);", workflow):
        schemes |= set(listed.split())
    found = [f"{workflow_path}: scheme {s} is not a library product of Package.swift" for s in sorted(schemes - products)]
    platforms = set(re.findall(r"(iOS|tvOS|watchOS|visionOS|macOS) Simulator", workflow))
    found += [f"{workflow_path}: {p} is not a platform Package.swift declares" for p in sorted(platforms - declared)]
    for finding in found:
        print(finding)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ".github/workflows/ci.yml"))
