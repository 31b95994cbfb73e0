#!/usr/bin/env python3
"""Fails when code uses an API newer than the package's minimum platforms outside `#available`.

The package declares iOS 13, macOS 10.15, tvOS 13, watchOS 6 (Package.swift). The Apple compiler
refuses an API newer than that unless the code is inside `if #available`/`guard #available`, or a
declaration marked `@available(<platform> <version>, ...)`. Linux has no such marks, so its
compiler accepts every use, and this check stands in for the Apple one for the APIs below: the
ones the package meets (Foundation, Combine, Swift concurrency, the standard library).

Code in an `#if os(Linux)` (or `canImport(Glibc)`) branch is not checked: Apple never compiles it.

Usage: availability.py FOLDER...   (exit 1 and one line per finding when any)
"""
import re
import sys

from swift_text import blank, check

# (pattern, what it is, the first releases that have it); a pattern marked `combine` counts only
# in a file that imports Combine.
APIS = [
    (r"await\s[^\n]*(?:\.future\(\)|\bFuture\b)[^\n]*\.value\b", "Combine's Future.value", "iOS 15, macOS 12", True),
    (r"\.bytes\((?:for|from):", "URLSession.bytes", "iOS 15, macOS 12", False),
    (r"\.(?:data|upload|download)\((?:for|from):", "URLSession's async data", "iOS 15, macOS 12", False),
    (r"\b(?:AsyncStream|AsyncThrowingStream)(?:<[^>]*>)?\.makeStream\b", "AsyncStream.makeStream", "iOS 17, macOS 14", False),
    (r"\bTask\.sleep\(for:", "Task.sleep(for:)", "iOS 16, macOS 13", False),
    (r"\b(?:ContinuousClock|SuspendingClock)\b", "Swift's clocks", "iOS 16, macOS 13", False),
    (r"\bDate\.now\b", "Date.now", "iOS 15, macOS 12", False),
    (r"\.formatted\(", "formatted()", "iOS 15, macOS 12", False),
    (r"\bURL\((?:filePath|string:[^)]*encodingInvalidCharacters):", "URL(filePath:)", "iOS 16, macOS 13", False),
    (r"\.appending\((?:path|component|components|queryItems):", "URL.appending(path:)", "iOS 16, macOS 13", False),
    (r"\bURL\.(?:homeDirectory|temporaryDirectory|documentsDirectory|cachesDirectory)\b", "URL's directories", "iOS 16, macOS 13", False),
    (r"\.firstRange\(of:|\.ranges\(of:|\.trimmingPrefix\(|\.replacing\(", "the string algorithms", "iOS 16, macOS 13", False),
    (r"\bRegex<|#/", "Regex", "iOS 16, macOS 13", False),
    (r"\b(?:Mutex|Atomic)\s*[<(]", "Synchronization", "iOS 18, macOS 15", False),
    (r"\.timeLimit\(", "Swift Testing's .timeLimit", "iOS 16, macOS 13", False),
    (r"\bString\(localized:|\bAttributedString\(", "Foundation's localized strings", "iOS 15, macOS 12", False),
]
COMPILED = [(re.compile(p), what, since, combine) for p, what, since, combine in APIS]
GUARD = re.compile(r"#available\(|@available\((?:iOS|macOS|tvOS|watchOS|visionOS|macCatalyst)\s+\d")
ATTRIBUTE = re.compile(r"@available\((?:iOS|macOS|tvOS|watchOS|visionOS|macCatalyst)\s+\d")
GUARD_AVAILABLE = re.compile(r"guard\s+#available\(")
LINUX_ONLY = re.compile(r"^\s*#if\s+(?:os\(Linux\)|canImport\(Glibc\)|!canImport\(Darwin\))")


def linux_only_lines(text):
    """The line numbers (from 1) inside an `#if` branch that only Linux compiles."""
    lines, skipped, depth = text.split("\n"), set(), []
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("#if"):
            depth.append(bool(LINUX_ONLY.match(line)))
        elif stripped.startswith("#elseif") or stripped.startswith("#else"):
            if depth:
                depth[-1] = False
        elif stripped.startswith("#endif"):
            if depth:
                depth.pop()
        elif any(depth):
            skipped.add(number)
    return skipped


def findings(path):
    source = path.read_text(encoding="utf-8")
    text = blank(source)
    imports_combine = re.search(r"^\s*(?:public\s+)?import\s+Combine\b", text, re.M) is not None
    skipped = linux_only_lines(text)
    # Which parts of the file are guarded: a stack of block flags, True inside a block opened under
    # `#available` or an `@available(<platform> <version>)` declaration (or inside such a block).
    guarded_at, stack, header_start = [False] * (len(text) + 1), [False], 0
    for i, c in enumerate(text):
        if c == "{":
            stack.append(stack[-1] or bool(GUARD.search(text[header_start:i])))
            header_start = i + 1
        elif c == "}":
            if len(stack) > 1:
                stack.pop()
            header_start = i + 1
        elif c == ";":
            header_start = i + 1
        elif GUARD_AVAILABLE.match(text, i):
            stack[-1] = True  # `guard #available(...) else {...}`: the rest of this block
        guarded_at[i] = stack[-1]
    for pattern, what, since, combine in COMPILED:
        if combine and not imports_combine:
            continue
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            # In a declaration's header (a test's traits), an `@available` later in the same header.
            body = text.find("{", match.start())
            in_header = ATTRIBUTE.search(text[match.start() : body if body >= 0 else len(text)])
            if guarded_at[match.start()] or in_header or line in skipped:
                continue
            yield f"{path}:{line}: {what} needs {since}, newer than the package's minimums: use it under #available"


if __name__ == "__main__":
    sys.exit(check(findings, sys.argv[1:] or ["Sources", "Tests", "Examples"]))
