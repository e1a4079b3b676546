"""The two sides of a diff: a game directory, a git revision of one, or an agent run.

A side names something that holds rule pages; it is resolved to a *workspace
directory* (``game.toml``, ``pages/``, ``traces/``, ...) that can be compiled on its
own, into its own ``build/``:

``corpora/pig``
    A game directory, used where it is.
``corpora/pig@HEAD~1``
    The directory as it was at a git revision; materialised with ``git archive``
    into ``<scratch>/<name>@<rev>/`` (the scratch folder is under the new side's
    ``build/``, which git ignores).
``corpora/pig/runs/<id>``
    An agent run (a folder with ``events.jsonl``) or any folder holding ``pages/*.rl``:
    the enclosing game directory's files are copied to ``<scratch>/run-<id>/`` and the
    run's pages replace the game's pages.

The pages of an agent run are rebuilt from its log: a run keeps only the page
versions it wrote (``page_version`` events naming ``pages/<turn>-<call>-<page>.rl``,
or a deletion), so its pages are those left by the runs before it in the same
``runs/`` folder (in id order, which is time order, starting from no pages) with its
own versions applied in order.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from rulebook2game.errors import BadInputError
from rulebook2game.targets import page_suffix_for

SideKind = Literal["dir", "git", "run"]

_GAME_FILES_SKIPPED = {"pages", "build", "runs", "reports"}
EVENTS = "events.jsonl"
"""The event log of an agent run (see :mod:`rulebook2game.agent.runlog`)."""


@dataclass(frozen=True)
class Side:
    """One side of a diff, resolved to a workspace directory."""

    label: str
    """What the user named (``corpora/pig@HEAD~1``)."""
    root: Path
    """The workspace directory to read pages from and compile."""
    kind: SideKind

    def pages(self) -> dict[str, str]:
        """Every rule page of the side, ``{file stem: source}``."""
        folder = self.root / "pages"
        suffix = page_suffix_for(self.root)
        return {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob(f"*{suffix}"))}


def split_revision(spec: str) -> tuple[Path, str | None]:
    """``corpora/pig@HEAD~1`` -> (``corpora/pig``, ``HEAD~1``); an existing path wins."""
    if Path(spec).exists() or "@" not in spec:
        return Path(spec), None
    path, _, rev = spec.rpartition("@")
    if not path or not rev:
        raise BadInputError(f"{spec}: expected PATH@REVISION")
    return Path(path), rev


def working_dir(spec: str) -> Path:
    """The directory a side lives in on disk (for a revision: its working-tree path)."""
    return split_revision(spec)[0]


def resolve_side(spec: str, scratch: Path) -> Side:
    """Resolve a side's spec, materialising revisions and runs under ``scratch``."""
    path, rev = split_revision(spec)
    if rev is not None:
        return Side(spec, materialise_revision(path, rev, scratch), "git")
    if not path.is_dir():
        raise BadInputError(f"{spec}: not a directory")
    if (path / "game.toml").is_file():
        return Side(spec, path, "dir")
    if (path / EVENTS).is_file() or (path / "pages").is_dir():
        return Side(spec, materialise_run(path, scratch), "run")
    raise BadInputError(f"{spec}: neither a game directory (game.toml) nor a run (pages/)")


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "x"


def _fresh(dest: Path) -> Path:
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    return dest


def _git(args: list[str], cwd: Path) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as exc:
        raise BadInputError(f"cannot run git ({exc})") from exc
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise BadInputError(f"git {args[0]}: {message[-1] if message else 'failed'}")
    return done.stdout


def _existing_ancestor(path: Path) -> Path:
    here = path.resolve()
    while not here.is_dir():
        here = here.parent
    return here


def materialise_revision(path: Path, rev: str, scratch: Path) -> Path:
    """Extract ``path`` as it was at git revision ``rev`` into a fresh folder."""
    cwd = _existing_ancestor(path)
    top = Path(_git(["rev-parse", "--show-toplevel"], cwd).decode().strip())
    try:
        rel = PurePosixPath(path.resolve().relative_to(top.resolve()).as_posix())
    except ValueError:
        raise BadInputError(f"{path}: not inside the git repository {top}") from None
    try:
        blob = _git(["archive", "--format=tar", rev, "--", str(rel)], top)
    except BadInputError as exc:
        raise BadInputError(f"{path}@{rev}: {exc}") from None
    dest = _fresh(scratch / f"{_safe(path.resolve().name)}@{_safe(rev)}")
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        for member in tar.getmembers():
            inside = PurePosixPath(member.name)
            if inside == rel or not inside.is_relative_to(rel):
                continue
            member.name = inside.relative_to(rel).as_posix()
            tar.extract(member, dest, filter="data")
    if not (dest / "game.toml").is_file():
        raise BadInputError(f"{path}@{rev}: no game.toml at that revision")
    return dest


def game_dir_of(path: Path) -> Path:
    """The nearest enclosing directory of ``path`` that holds a ``game.toml``."""
    for here in [path.resolve(), *path.resolve().parents]:
        if (here / "game.toml").is_file():
            return here
    raise BadInputError(f"{path}: not inside a game directory (no game.toml above it)")


def run_pages(run: Path) -> dict[str, str]:
    """The pages an agent run left (see the module docstring), or a folder's ``pages/*.rl``."""
    if not (run / EVENTS).is_file():
        suffix = page_suffix_for(run)
        return {p.stem: p.read_text(encoding="utf-8") for p in sorted(run.glob(f"pages/*{suffix}"))}
    earlier = sorted(
        p for p in run.parent.iterdir() if (p / EVENTS).is_file() and p.name <= run.name
    )
    pages: dict[str, str] = {}
    for folder in earlier:
        _apply_run(folder, pages)
    return pages


def _apply_run(run: Path, pages: dict[str, str]) -> None:
    for line in (run / EVENTS).read_text(encoding="utf-8").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a line torn by a kill
        if not isinstance(event, dict) or event.get("event") != "page_version":
            continue
        name = str(event.get("page", ""))
        if event.get("action") == "deleted":
            pages.pop(name, None)
            continue
        version = run / str(event.get("version", ""))
        if not version.is_file():
            raise BadInputError(f"{run}: page version {version.name} is missing")
        pages[name] = version.read_text(encoding="utf-8")


def materialise_run(run: Path, scratch: Path) -> Path:
    """Copy the enclosing game's files and the run's pages into a fresh folder."""
    try:
        game = game_dir_of(run.parent)
    except BadInputError:
        raise BadInputError(
            f"{run}: not a game directory (no game.toml), nor a run inside one"
        ) from None
    pages = run_pages(run)
    dest = _fresh(scratch / f"run-{_safe(run.resolve().name)}")
    for item in game.iterdir():
        if item.name in _GAME_FILES_SKIPPED or item.name.startswith("."):
            continue
        if item.is_dir():
            shutil.copytree(item, dest / item.name)
        else:
            shutil.copy2(item, dest / item.name)
    (dest / "pages").mkdir()
    for name, source in pages.items():
        (dest / "pages" / f"{name}.rl").write_text(source, encoding="utf-8")
    return dest
