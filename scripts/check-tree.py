#!/usr/bin/env python3
"""The repository's own rules, checked (RepositoryRulesTests runs this; so can anyone: python3 scripts/check-tree.py).

- No Sources file over 600 lines outside a Generated/ folder: a file that long holds more than one concern.
- No "round N" in Sources: comments say why, not when (history is git's and CHANGELOG.md's).
- Production code reads no STREAMLENS_* environment variable but the documented model and media paths.
- No module imports one above it: the layers are the ones Package.swift's header comment lists, bottom first.
- Every generated file in a Generated/ folder names the script that writes it in its first lines.
Prints one line per problem and exits 1 when there is any.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"
MAX_LINES = 600
ALLOWED_ENVIRONMENT = {"STREAMLENS_MEDIA", "STREAMLENS_TEXT_LINE_MODEL", "STREAMLENS_MODEL_DIR"}
CODE = {".swift", ".c", ".h", ".cpp", ".hpp"}


def layers():
    """{module: layer} from Package.swift's header: lines `//   N. ModuleA, ModuleB (what they are)`."""
    result = {}
    for line in (ROOT / "Package.swift").read_text().splitlines():
        match = re.match(r"//\s+(\d+)\.\s+(.*)$", line)
        if not match:
            continue
        names = re.sub(r"\(.*?\)", "", match.group(2))
        for name in re.findall(r"[A-Za-z_][A-Za-z0-9_-]*", names):
            result[name] = int(match.group(1))
    return result


def main():
    problems = []
    layer_of = layers()
    if not layer_of:
        problems.append("Package.swift: no layer list in its header comment (lines like '//   1. StreamLensCore')")
    for path in sorted(SOURCES.rglob("*")):
        if not path.is_file() or path.suffix not in CODE:
            continue
        relative = path.relative_to(ROOT)
        generated = "Generated" in path.parts
        text = path.read_text(errors="replace")
        lines = text.splitlines()
        if generated:
            head = "\n".join(lines[:5])
            if "scripts/" not in head:
                problems.append(f"{relative}: a generated file must name the script that writes it in its first lines")
            continue
        if len(lines) > MAX_LINES:
            problems.append(f"{relative}: {len(lines)} lines (at most {MAX_LINES} outside Generated/): split it")
        for number, line in enumerate(lines, 1):
            if re.search(r"\bround \d+", line, re.IGNORECASE):
                problems.append(f"{relative}:{number}: 'round N' in the code: say why, and name the test that shows it")
            for variable in re.findall(r"\b(STREAMLENS_[A-Z0-9_]+)\b", line):
                reads = "environment" in line or "getenv" in line
                if reads and variable not in ALLOWED_ENVIRONMENT:
                    problems.append(f"{relative}:{number}: reads {variable}: measurement switches belong in Tools/ or scripts/")
        module = path.relative_to(SOURCES).parts[0]
        if path.suffix == ".swift" and module in layer_of:
            for imported in re.findall(r"^\s*(?:@testable |internal |public |package |private )?import\s+(\w+)", text, re.M):
                if imported in layer_of and layer_of[imported] >= layer_of[module] and imported != module:
                    problems.append(
                        f"{relative}: {module} (layer {layer_of[module]}) imports {imported} (layer {layer_of[imported]}): "
                        "a module imports only lower layers")
    modules = {p.name for p in SOURCES.iterdir() if p.is_dir() and not p.name.startswith("C")}
    for module in sorted(modules - set(layer_of)):
        problems.append(f"Sources/{module}: not in Package.swift's layer list")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-tree: {len(problems)} problem(s)")
        return 1
    print("check-tree: the tree follows its rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
