"""Reading Swift source for the checks in .ci: the text with comments and strings blanked, and
the run over folders that prints each finding."""
import pathlib


def blank(text):
    """The text with comments and string literals replaced by spaces (positions kept)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def check(findings, folders):
    """Prints what `findings(path)` yields for every Swift file under `folders`; 1 when any."""
    found = [f for folder in folders for path in sorted(pathlib.Path(folder).rglob("*.swift")) for f in findings(path)]
    for finding in found:
        print(finding)
    return 1 if found else 0
