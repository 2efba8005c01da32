#!/usr/bin/env python3
"""The house's two size rules, checked by `make lint`: no hand-written file of code over 300 lines (Swift, Python,
JavaScript, shell, C; generated tables and data aside), no Swift function, initializer or computed property and no
Python function over 100 lines; and no key path (`\\.name`) in the modules the Pi's build compiles as Embedded Swift,
which has none (the arm64 and armhf builds would fail in CI, long after the host's). Prints each breach with its file
and line and exits 1 when there is one.

    Tests/Support/house_rules.py [FOLDER...]      (Sources, Tests and Benchmarks by default)

A Swift declaration's length runs from its line to the line of the brace that closes its body, strings and comments
set aside (a `}` in a string literal does not end it); a Python function's from its `def` to its last line."""
import ast
import os
import re
import sys

CODE = (".swift", ".py", ".js", ".sh", ".c", ".h")
FILE_LIMIT = 300
FUNCTION_LIMIT = 100
DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|internal|fileprivate|package|open|static|class|mutating|"
    r"nonmutating|override|final|convenience|required|nonisolated|lazy)\s+|(?:private|internal|package|public)\(set\)\s+)*"
    r"(func\s+[\w`]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<]|var\s+\w+\s*:[^=]*\{\s*$)")
STRING = re.compile(r'#*"(?:\\.|[^"\\])*"#*')
# The modules Tests/Pi/build.sh compiles as Embedded Swift.
EMBEDDED = ("NMEA", "N2K", "Marine", "Engine", "Router", "Bridge", "SignalK", "Fleet", "Platform", "Sensors", "Gateway",
            "TelltalePi")
# `\.` starts no escape in a Swift string, so on a line of code (its comment cut off) it is a key path.
KEY_PATH = re.compile(r"\\\.[A-Za-z_]")


def key_paths(path, lines):
    """(line, text) of each key path in an Embedded module's Swift file."""
    parts = os.path.normpath(path).split(os.sep)
    if not path.endswith(".swift") or "Sources" not in parts or parts[parts.index("Sources") + 1] not in EMBEDDED:
        return []
    return [(number, line.strip()) for number, line in enumerate(lines, 1)
            if KEY_PATH.search(line.split("//")[0])]


def braces(line, in_block):
    """The line's net braces outside strings and comments, and whether a multi-line string is still open after it."""
    if in_block:
        if '"""' in line:
            return 0, False
        return 0, True
    if line.count('"""') % 2 == 1:
        return line.split('"""')[0].count("{") - line.split('"""')[0].count("}"), True
    code = STRING.sub('""', line).split("//")[0]
    return code.count("{") - code.count("}"), False


def long_declarations(lines):
    found = []
    index = 0
    while index < len(lines):
        match = DECLARATION.match(lines[index])
        if not match:
            index += 1
            continue
        depth, started, in_block, end = 0, False, False, index
        while end < len(lines):
            net, in_block = braces(lines[end], in_block)
            if net > 0 or "{" in lines[end]:
                started = started or "{" in STRING.sub('""', lines[end]).split("//")[0]
            depth += net
            if started and depth <= 0:
                break
            end += 1
        length = end - index + 1
        if started and length > FUNCTION_LIMIT:
            found.append((index + 1, length, lines[index].strip()[:80]))
        index += 1
    return found


def long_python_functions(source):
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > FUNCTION_LIMIT:
                found.append((node.lineno, length, f"def {node.name}"))
    return found


def main(folders):
    breaches = 0
    for folder in folders:
        for root, _, files in os.walk(folder):
            if "/Generated" in root or "/.build" in root:
                continue
            for name in sorted(files):
                if not name.endswith(CODE):
                    continue
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    lines = f.read().split("\n")
                count = len(lines) - (1 if lines and lines[-1] == "" else 0)
                if count > FILE_LIMIT:
                    breaches += 1
                    print(f"{path}: {count} lines (a file holds one concept, at most {FILE_LIMIT} lines)")
                longs = long_declarations(lines) if name.endswith(".swift") else (
                    long_python_functions("\n".join(lines)) if name.endswith(".py") else [])
                for line, text in key_paths(path, lines):
                    breaches += 1
                    print(f"{path}:{line}: a key path, which Embedded Swift has not: {text}")
                for line, length, text in longs:
                    breaches += 1
                    print(f"{path}:{line}: {length} lines: {text} (at most {FUNCTION_LIMIT})")
    if breaches:
        print(f"house rules: {breaches} breach(es)")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["Sources", "Tests", "Benchmarks"]))
