#!/usr/bin/env python3
"""Fails when an `async` function blocks its thread with `.wait(...)` (a semaphore, a group).

Apple's Dispatch marks `DispatchSemaphore.wait()` and `DispatchGroup.wait()` unavailable from
async code (`noasync`), and XCTest does the same for `wait(for:timeout:)`: in Swift 6 mode that
is a compile error on Apple platforms. Linux's Dispatch and XCTest carry no such mark, so the
Linux compiler accepts it and this check stands in for the Apple one.

The rule it checks is the compiler's: a `.wait(` or `wait(for:` directly in the body of an
`async` func or init, or in an `if`/`guard`/`for`/`while`/`do`/`switch`/`defer`/`catch` block
of that body. A closure inside the body (the work handed to `BlockingWork.run`, a database
write) is code of its own and is not checked.

Usage: async-waits.py FOLDER...   (exit 1 and one line per finding when any)
"""
import re
import sys

from swift_text import blank, check

CONTROL = re.compile(r"(?:^|[\s}])(if|guard|else|for|while|do|switch|catch|defer|repeat)\b[^{]*$")
ASYNC_SIGNATURE = re.compile(r"\b(func\s+\w+|init)\s*(<[^>]*>)?\s*\((?:[^()]|\([^()]*\))*\)\s*async\b[^{]*\{")
WAIT = re.compile(r"(\.wait\(|(?<![.\w])wait\(for:)")


def findings(path):
    text = blank(path.read_text(encoding="utf-8"))
    for signature in ASYNC_SIGNATURE.finditer(text):
        # Walk the body: a stack of brace kinds, True for a statement block, False for a closure.
        stack = [True]
        i = signature.end()
        while stack and i < len(text):
            c = text[i]
            if c == "{":
                start = max(text.rfind("\n", 0, i), text.rfind(";", 0, i), text.rfind("{", 0, i)) + 1
                stack.append(stack[-1] and bool(CONTROL.search(text[start:i])))
            elif c == "}":
                stack.pop()
            elif stack[-1] and WAIT.match(text, i):
                line = text.count("\n", 0, i) + 1
                yield f"{path}:{line}: a blocking wait in async code (noasync on Apple platforms); use BlockingWork.run or await"
            i += 1


if __name__ == "__main__":
    sys.exit(check(findings, sys.argv[1:] or ["Sources", "Tests", "Examples"]))
