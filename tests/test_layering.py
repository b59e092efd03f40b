"""The layering of the apps (docs/architecture.md): who may import whom, checked on the source.

An `ast` walk over the apps' modules finds every import, those inside functions too. The rules:
the rules engine and the solver import no Django and no app; games imports neither leaderboard
nor races (it tells them through listeners: games/results.py); no app imports fairplay/ (it
listens to settled results) nor daily/ (it tells
games and the boards through games/daily_calendar.py); and no import circle between
modules beyond the ones listed here, which the package split of games and leaderboard removes:
a circle that is gone must leave the list, and no new one may join it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parent.parent
APPS = ("accounts", "daily", "fairplay", "frontend", "games", "leaderboard", "players", "races", "yukon_site")

# The module circles of today (each its modules, sorted): none; a new one fails the test.
KNOWN_CIRCLES: set[tuple[str, ...]] = set()


def module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT_DIR).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def app_modules() -> dict[str, Path]:
    modules = {}
    for app in APPS:
        for path in (PROJECT_DIR / app).rglob("*.py"):
            if "migrations" not in path.parts:
                modules[module_name(path)] = path
    return modules


def runtime_nodes(tree: ast.AST):
    """Every node but those under `if TYPE_CHECKING:` (type hints, never imported at run time)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        yield node
        yield from runtime_nodes(node)


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The app modules `name` imports at run time (`from a.b import c` counts a.b.c when it is a
    module), inside functions too."""
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in runtime_nodes(ast.parse(path.read_text(), filename=str(path))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parents = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parents, *([base] if base else [])])
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = app_modules()
    return {name: imports_of(name, path, set(modules)) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], set(), [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.add(tuple(sorted(component)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_engine_and_the_solver_import_no_django_and_no_app():
    for root in ("games/engine", "games/solver"):
        for path in (PROJECT_DIR / root).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and not node.level:
                    names = [node.module or ""]
                for name in names:
                    top = name.split(".")[0]
                    allowed = name.startswith(("games.engine", "games.solver"))
                    assert top not in {"django", "rest_framework", "channels", "celery", *APPS} or allowed, (
                        f"{path.relative_to(PROJECT_DIR)} imports {name}"
                    )


def test_games_imports_neither_the_boards_nor_the_races(graph):
    for module, imported in graph.items():
        if module.startswith("games"):
            above = sorted(other for other in imported if other.split(".")[0] in {"leaderboard", "races"})
            assert not above, f"{module} imports {above}: tell them through games/results.py instead"


def test_the_boards_never_import_the_races(graph):
    for module, imported in graph.items():
        if module.startswith("leaderboard"):
            races = sorted(other for other in imported if other.startswith("races"))
            assert not races, f"{module} imports {races}: what reads both belongs in players/"


def test_no_app_imports_the_players_read_module_but_the_urls(graph):
    for module, imported in graph.items():
        if not module.startswith("players") and module != "yukon_site.urls":
            players = sorted(other for other in imported if other.startswith("players"))
            assert not players, f"{module} imports {players}: players/ reads the apps, never the reverse"


def test_no_app_imports_the_daily_deal_but_the_site(graph):
    for module, imported in graph.items():
        if not module.startswith(("daily", "yukon_site")):
            found = sorted(other for other in imported if other.split(".")[0] == "daily")
            assert not found, f"{module} imports {found}: daily/ tells games.daily_calendar"


def test_the_daily_deal_imports_only_the_apps_below_it(graph):
    below = {"daily", "games", "leaderboard", "accounts", "yukon_site"}
    for module, imported in graph.items():
        if module.startswith("daily"):
            others = sorted(other for other in imported if other.split(".")[0] not in below)
            assert not others, f"{module} imports {others}: daily/ may import games, leaderboard and accounts"


def test_fair_play_listens_and_no_app_imports_it(graph):
    below = {"fairplay", "games", "accounts", "yukon_site"}
    for module, imported in graph.items():
        top = module.split(".")[0]
        if top == "fairplay":
            others = sorted(other for other in imported if other.split(".")[0] not in below)
            assert not others, f"{module} imports {others}: fairplay/ may import games and accounts"
        elif top != "yukon_site":
            found = sorted(other for other in imported if other.split(".")[0] == "fairplay")
            assert not found, f"{module} imports {found}: fairplay/ listens to games/results.py"


def test_accounts_imports_no_other_app(graph):
    for module, imported in graph.items():
        if module.startswith("accounts"):
            above = set(APPS) - {"accounts", "yukon_site"}
            others = sorted(other for other in imported if other.split(".")[0] in above)
            assert not others, f"{module} imports {others}: tell them through accounts/listeners.py instead"


def test_no_import_circle_but_the_known_ones(graph):
    found = circles(graph)
    assert found - KNOWN_CIRCLES == set(), "a new import circle"
    assert KNOWN_CIRCLES - found == set(), "a known circle is gone: take it off KNOWN_CIRCLES"


def test_an_app_imports_an_app_module_inside_a_function_only_in_its_ready():
    """A lazy import hides a circle from a reader; the one start-up reason is AppConfig.ready()
    (the app registry is not ready when apps.py is imported). Type hints' imports are not run."""
    found = []
    for name, path in app_modules().items():
        if name.startswith(("games.engine", "games.solver")):
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    is_import = isinstance(node, ast.Import)
                    targets = [a.name for a in node.names] if is_import else [node.module or ""]
                    if any(t.split(".")[0] in APPS for t in targets) and not (
                        path.name == "apps.py" and function.name == "ready"
                    ):
                        found.append(f"{name}.{function.name}: {ast.unparse(node)}")
    assert not found, "imports inside functions: " + "; ".join(found)
