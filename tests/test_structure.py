"""The package's shape: its imports form no circle, and no module outgrows one reading.

Imports inside functions count too (they are deferred, not gone): a circle through one
of them still means two modules that each need the other.  Imports under
``if TYPE_CHECKING:`` do not run and do not count.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "kamivision"

#: The most lines a module may hold (issue 37): past it, split it by idea.
MAX_LINES = 450


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports, wherever in it, outside TYPE_CHECKING."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                out.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.rsplit(".", child.level - 1)[0] if child.level > 1 else package
                    base = base + "." + child.module if child.module else base
                else:
                    base = child.module or ""
                subs = [f"{base}.{alias.name}" for alias in child.names]
                # ``from . import x`` imports the submodule x, not the package's contents.
                out.update(subs if child.module is None and child.level else [base, *subs])
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {target for target in out if target in known and target != name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in graph:
        if v not in index:
            connect(v)
    return found


def test_the_imports_form_no_circle():
    known = modules()
    graph = {name: imported(name, path, known) for name, path in known.items()}
    assert graph["kamivision.pipeline"] >= {
        "kamivision.vision",
        "kamivision.solver",
        "kamivision.check.doubt",
    }  # the reading works
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_is_over_450_lines():
    long = {
        name: n
        for name, path in modules().items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these by idea: {long}"


def test_every_process_pool_is_started_by_forkserver():
    """Batches run in a pool of processes started by forkserver, not fork: the parent may
    hold threads (OpenCV's), which fork copies badly (issue 49: Flood-It's pool forked)."""
    pools = {}
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Pool":
                owner = node.func.value
                started = (
                    isinstance(owner, ast.Call) and ast.unparse(owner) == "multiprocessing.get_context('forkserver')"
                )
                pools.setdefault(name, []).append(started)
    assert pools and all(all(found) for found in pools.values()), pools


def test_ruff_finds_nothing():
    """The lint and the format configured in pyproject.toml ([tool.ruff]) over the package,
    the tests, the benchmarks and the scripts: errors, unused imports and names, sorted
    imports, and the code laid out as ``ruff format`` lays it out."""
    import shutil
    import subprocess
    import sys

    import pytest

    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (it is in the test extra: pip install -e '.[test]')")
    root = PACKAGE.parent
    for command in (["check"], ["format", "--check"]):
        done = subprocess.run(
            [ruff, *command, "kamivision", "tests", "benchmarks", "scripts"], cwd=root, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_stages_import_only_the_stages_before_them():
    """Data flows one way, image -> board -> graph -> solution -> check -> overlay: the
    reader knows nothing of the solver, the renderer's phones or what follows it; the
    solver nothing of the reader; the check of the reading's doubt nothing of the picture
    drawn after it."""
    known = modules()
    graph = {name: imported(name, path, known) for name, path in known.items()}
    later = {
        "kamivision.vision": (
            "kamivision.solver",
            "kamivision.check",
            "kamivision.synth",
            "kamivision.overlay",
            "kamivision.pipeline",
        ),
        "kamivision.solver": (
            "kamivision.vision",
            "kamivision.check",
            "kamivision.synth",
            "kamivision.overlay",
            "kamivision.pipeline",
        ),
        "kamivision.check": (
            "kamivision.synth",
            "kamivision.overlay",
            "kamivision.pipeline",
            "kamivision.web",
            "kamivision.cli",
        ),
    }
    wrong = sorted(
        (name, other)
        for name, targets in graph.items()
        for stage, banned in later.items()
        if name == stage or name.startswith(stage + ".")
        for other in targets
        if any(other == b or other.startswith(b + ".") for b in banned)
    )
    assert wrong == []


def test_the_solve_command_is_a_thin_layer():
    """``kamivision solve`` parses options, makes one call and prints (issue 49): no
    function of cli/solve.py is over 60 lines (its options are declared once, above it)."""
    tree = ast.parse((PACKAGE / "cli" / "solve.py").read_text(encoding="utf-8"))
    long = {
        node.name: node.end_lineno - node.lineno + 1
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.end_lineno - node.lineno + 1 > 60
    }
    assert long == {}


#: Words that make a string a sentence about an answer: its moves, its proof, the search,
#: the counter, the doubt in the reading.
ANSWER_WORDS = re.compile(
    r"\b(moves?|optimal|optimum|proven|solutions?|answers?|search(es)?|stopped|counter(?!-)|doubtful|"
    r"swatch(es)?|slides?|interrupted|beam|greedy)\b"
)


def _sentences(path: Path) -> list[tuple[int, str]]:
    """The string literals of three words or more about an answer, outside docstrings,
    raised errors, log lines, progress lines and ``__repr__``: what a user would read."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            skip.add(id(body[0].value))  # a docstring
        named = isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1]
        if (
            isinstance(node, ast.Raise)
            or (named and (named in ("debug", "info", "warning", "error", "exception", "progress", "announce")))
            or (isinstance(node, ast.FunctionDef) and node.name == "__repr__")
        ):
            skip.update(id(sub) for sub in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if len(text.split()) >= 3 and ANSWER_WORDS.search(text):
            found.append((node.lineno, text))
    return found


def test_no_sentence_about_an_answer_is_built_outside_the_report():
    """The stages return data (moves, bounds, notes, doubts) and kamivision.report words
    it (issue 49).  The interfaces (cli/, web/) word only their own prompts and failures,
    and errors are worded where they are raised."""
    outside = {
        f"{name}:{line}": text
        for name, path in modules().items()
        if not name.startswith(("kamivision.report", "kamivision.cli", "kamivision.web"))
        for line, text in _sentences(path)
    }
    assert outside == {}


def test_the_sentence_finder_finds_a_sentence(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        '"""A docstring about the moves found."""\n'
        "def f(n):\n"
        '    """The moves, proven optimal."""\n'
        '    if n < 0:\n        raise ValueError(f"{n} moves is not a count of moves")\n'
        '    return f"{n} moves, proven optimal"\n'
    )
    assert _sentences(module) == [(6, "{} moves, proven optimal")]


def test_every_module_has_its_tests():
    """Tests mirror modules (issue 49): each module has ``tests/.../test_<name>.py``, or its
    docstring says where it is tested ("Tested in tests/...") and those files exist."""
    root = PACKAGE.parent
    mirrored = {path.stem.removeprefix("test_") for path in (root / "tests").rglob("test_*.py")}
    untested = {}
    for name, path in modules().items():
        stem = path.stem
        if stem == "__init__" or stem.startswith("_") or stem in mirrored:
            continue
        said = re.search(
            r"Tested in ((?:tests/[\w/]+\.py(?:, )?)+)\.", ast.get_docstring(ast.parse(path.read_text())) or ""
        )
        named = said.group(1).split(", ") if said else []
        if not named or not all((root / test).exists() for test in named):
            untested[name] = named
    assert untested == {}
