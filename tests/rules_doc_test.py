"""docs/rules.md is where the rule ids are defined (P3, G9, S4, RT1...): every id a test name
carries is listed there, every file it links exists, and no page of the project points at a rule
list outside the repository. Usage: rules_doc_test.py <source dir>; prints each failure and a
final "N passed, M failed" line; exit 1 on failure.

A test name carries an id when it starts with one followed by "_" (X1_...), and each id that
follows another the same way (S1_S5_...). Test names come from TEST/TEST_F/TEST_P/TYPED_TEST in
tests/*.cpp (the name after the suite), `def test_...` in python/tests/ and tests/*.py (the name
after "test_"), and the CTest names add_test registers in tests/CMakeLists.txt (each dot-separated
part)."""
import pathlib
import re
import sys

ID_AT_START = re.compile(r"([A-Z]{1,3}[0-9]+)_")
GTEST = re.compile(r"\b(?:TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")
PYTEST = re.compile(r"^\s*def\s+test_(\w+)\s*\(", re.MULTILINE)
CTEST = re.compile(r"\badd_test\s*\(\s*NAME\s+([^\s)]+)")
# A row of a table on the page: | ID | rule | where |
ROW = re.compile(r"^\|\s*([A-Z]{1,3}[0-9]+)\s*\|(.*)\|\s*$")
LINK = re.compile(r"\]\(([^)\s]+)\)")
OUTSIDE_RULES = ("shared/DESIGN.md",)  # covers ../shared/DESIGN.md too


def ids_of(name):
    """The ids a test name starts with: X1_... -> [X1]; S1_S5_... -> [S1, S5]."""
    if name.startswith("DISABLED_"):
        name = name[len("DISABLED_"):]
    found = []
    while True:
        match = ID_AT_START.match(name)
        if not match:
            return found
        found.append(match.group(1))
        name = name[match.end():]


def tested_ids(root):
    """id -> the first few tests carrying it (where they are)."""
    carried = {}
    names = []
    for path in sorted((root / "tests").glob("*.cpp")):
        text = path.read_text(errors="replace")
        for match in GTEST.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            names.append((match.group(2), f"{path.relative_to(root)}:{line} {match.group(1)}.{match.group(2)}"))
    for folder in (root / "python" / "tests", root / "tests"):
        for path in sorted(folder.glob("*.py")) if folder.is_dir() else []:
            text = path.read_text(errors="replace")
            for match in PYTEST.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                names.append((match.group(1), f"{path.relative_to(root)}:{line} test_{match.group(1)}"))
    cmake = root / "tests" / "CMakeLists.txt"
    if cmake.is_file():
        for match in CTEST.finditer(cmake.read_text(errors="replace")):
            for part in match.group(1).split("."):
                names.append((part, f"tests/CMakeLists.txt add_test {match.group(1)}"))
    for name, where in names:
        for rule in ids_of(name):
            carried.setdefault(rule, []).append(where)
    return carried, len(names)


def main(root):
    passed = 0
    failures = []

    def check(ok, message):
        nonlocal passed
        if ok:
            passed += 1
        else:
            failures.append(message)

    page = root / "docs" / "rules.md"
    check(page.is_file(), f"{page} is missing: wrong source folder, or the rules page was removed")
    text = page.read_text(errors="replace") if page.is_file() else ""

    listed = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = ROW.match(line.strip())
        if match:
            rule = match.group(1)
            check(rule not in listed, f"docs/rules.md:{number}: {rule} is listed twice (first at line {listed.get(rule)})")
            listed.setdefault(rule, number)
            cells = match.group(2)
            check(LINK.search(cells) or "not built yet" in cells,
                  f"docs/rules.md:{number}: {rule} names no implementing file (a link) and is not marked \"not built yet\"")
    check(bool(listed), "docs/rules.md lists no rule (no table row starting with an id)")

    carried, name_count = tested_ids(root)
    check(name_count > 0, f"no test names found under {root}/tests: wrong source folder")
    for rule in sorted(carried, key=lambda r: (re.sub(r"\d", "", r), int(re.sub(r"\D", "", r)))):
        where = carried[rule]
        more = f" (and {len(where) - 1} more)" if len(where) > 1 else ""
        check(rule in listed, f"{rule} is carried by {where[0]}{more} but docs/rules.md does not list it")

    for number, line in enumerate(text.splitlines(), 1):
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL or an anchor of the page itself
            path = (page.parent / target.split("#", 1)[0]).resolve()
            check(path.exists(), f"docs/rules.md:{number}: the link ({target}) names a file that does not exist ({path})")

    pages = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    if (root / "python").is_dir():
        pages += sorted(p for p in (root / "python").rglob("*.md") if "build" not in p.relative_to(root).parts)
    for doc in pages:
        if not doc.is_file():
            continue
        offending = [f"{doc.relative_to(root)}:{number}: names {outside}, which is outside the repository; link docs/rules.md instead"
                     for number, line in enumerate(doc.read_text(errors="replace").splitlines(), 1)
                     for outside in OUTSIDE_RULES if outside in line]
        check(not offending, "\n".join(offending))

    for failure in failures:
        print(failure)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: rules_doc_test.py <source dir>")
        sys.exit(2)
    sys.exit(main(pathlib.Path(sys.argv[1])))
