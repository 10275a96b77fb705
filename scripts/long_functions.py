#!/usr/bin/env python3
"""Lists C++ functions longer than a limit (CONTRIBUTING.md: none over 100 lines outside tests).

  scripts/long_functions.py [--max N] [PATH ...]   (default: --max 100 over the non-test sources)

A function is counted from the first line of its signature to its closing brace. The scan is
lexical (comments, string and character literals, raw strings and preprocessor lines are
skipped; braces are counted), which is enough for this tree's formatted code. Lambdas and local
classes count towards the function that holds them. Exit status 1 when a function is over the
limit, 0 otherwise.
"""

import argparse
import pathlib
import re
import sys

ROOTS = ["src", "tools", "python/src", "bench", "fuzz", "include", "examples"]
SUFFIXES = {".cpp", ".cc", ".h", ".hpp", ".asc"}
CONTROL = re.compile(r"\b(if|for|while|switch|catch|do|else|try)\s*(\(|$)")
# A function header ends with its parameter list, then qualifiers, a trailing return type or a
# constructor's initializer list.
FUNCTION_TAIL = re.compile(
    r"\)\s*(?:const|noexcept(?:\([^)]*\))?|override|final|mutable|&&?|\s)*"
    r"(?:->\s*[\w:<>,\s*&]+)?$"
)
CTOR_INIT = re.compile(r"\)\s*(?:noexcept\s*)?:\s*[\w:]+\s*[({]", re.S)
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b|extern\s+\"C\"")


def strip(text):
    """The text with comments, literals and preprocessor lines blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c == "\n":
            line_start = True
            out.append(c)
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """(name, first line, last line) of each outermost function body in the file."""
    text = strip(path.read_text(errors="replace"))
    found = []
    stack = []  # per open brace: "scope", "function" or "block"
    header_start = 0  # index after the last ';', '{' or '}' at scope level
    for i, c in enumerate(text):
        if c == ";" and "function" not in stack:
            header_start = i + 1
        elif c == "{":
            if "function" in stack:
                stack.append("block")
                continue
            header = text[header_start:i]
            flat = " ".join(header.split())
            kind = "block"
            if SCOPE.search(flat) and "(" not in flat.split("{")[0].split("=")[0]:
                kind = "scope"
            elif "=" in flat.split("(")[0] or flat.endswith("="):
                kind = "block"  # an initializer
            elif (FUNCTION_TAIL.search(flat) or CTOR_INIT.search(flat)) and not CONTROL.search(
                flat
            ):
                kind = "function"
            if kind == "function":
                lead = len(header) - len(header.lstrip())
                start = text.count("\n", 0, header_start + lead) + 1
                name = re.findall(r"([~\w:]+)\s*\(", flat)
                stack.append(("function", name[0] if name else "?", start))
                stack[-1] = "function"
                found.append([name[0] if name else "?", start, None])
            else:
                stack.append(kind)
            header_start = i + 1
        elif c == "}":
            if not stack:
                continue
            kind = stack.pop()
            if kind == "function":
                found[-1][2] = text.count("\n", 0, i) + 1
            if "function" not in stack:
                header_start = i + 1
    return [(n, s, e) for n, s, e in found if e is not None]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=100)
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    root = pathlib.Path(__file__).resolve().parent.parent
    paths = [pathlib.Path(p) for p in args.paths] or [root / r for r in ROOTS]
    files = []
    for p in paths:
        files += (
            [p]
            if p.is_file()
            else sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES and "tests" not in f.parts)
        )
    over = []
    for f in files:
        for name, start, end in functions(f):
            lines = end - start + 1
            if lines > args.max:
                rel = f.resolve().relative_to(root) if f.resolve().is_relative_to(root) else f
                over.append((lines, f"{rel}:{start}", name))
    for lines, where, name in sorted(over, reverse=True):
        print(f"{lines:5d}  {where}  {name}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
