"""Boards and their grids, read from a module's XML."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from rulebook2game.vassal.models import Board, Grid, Region, Zone

_GRID_KINDS = frozenset({"HexGrid", "SquareGrid", "RegionGrid", "ZonedGrid"})
_GRID_SETTINGS = (
    "dx",
    "dy",
    "x0",
    "y0",
    "sideways",
    "snapTo",
    "snapto",
    "visible",
    "edgesLegal",
    "cornersLegal",
    "range",
    "hexSize",
    "hexWidth",
)


def short_name(tag: str) -> str:
    """The class name without its package: ``VASSAL.build.module.Map`` -> ``Map``."""
    return tag.rsplit(".", 1)[-1]


def read_board(element: ET.Element) -> Board:
    """A ``Board`` element with its grids."""
    return Board(
        name=element.get("name", ""),
        image=element.get("image", ""),
        width=_int_or_none(element.get("width")),
        height=_int_or_none(element.get("height")),
        grids=[read_grid(child) for child in element if short_name(child.tag) in _GRID_KINDS],
    )


def read_grid(element: ET.Element) -> Grid:
    """A grid element (hex, square, region, zoned), recursively."""
    kind = short_name(element.tag)
    grid = Grid(
        kind=kind,
        attributes={k: v for k, v in element.attrib.items() if k in _GRID_SETTINGS},
    )
    for child in element:
        child_kind = short_name(child.tag)
        if child_kind.endswith("Numbering"):
            grid.numbering = dict(child.attrib)
        elif child_kind == "Region":
            grid.regions.append(
                Region(
                    name=child.get("name", ""),
                    x=_int_or_none(child.get("originx")) or 0,
                    y=_int_or_none(child.get("originy")) or 0,
                )
            )
        elif child_kind == "Zone":
            grid.zones.append(_read_zone(child))
        elif child_kind in _GRID_KINDS:
            grid.grids.append(read_grid(child))
    return grid


def _read_zone(element: ET.Element) -> Zone:
    inner = [read_grid(c) for c in element if short_name(c.tag) in _GRID_KINDS]
    return Zone(
        name=element.get("name", ""),
        path=_parse_path(element.get("path", "")),
        grid=inner[0] if inner else None,
    )


def _parse_path(text: str) -> list[tuple[int, int]]:
    points: list[tuple[int, int]] = []
    for pair in text.split(";"):
        x, _, y = pair.partition(",")
        px, py = _int_or_none(x), _int_or_none(y)
        if px is not None and py is not None:
            points.append((px, py))
    return points


def _int_or_none(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(float(text))
    except ValueError:
        return None
