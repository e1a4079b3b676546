"""Open a PDF and read each page's glyphs, shapes and images, or say clearly why not.

This is the only module that talks to pdfminer; every way a file can be unusable
(missing, a directory, not a PDF, truncated, damaged, encrypted) becomes a
:class:`~rulebook2game.errors.PdfError` with a one-line message here.
"""

from __future__ import annotations

import logging
import struct
import warnings
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar, LTCurve, LTFigure, LTImage, LTLine, LTPage, LTRect
from pdfminer.pdfdocument import PDFDocument, PDFPasswordIncorrect, PDFXRefFallback
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser
from pdfminer.psexceptions import PSException
from pdfminer.utils import decode_text

from rulebook2game.errors import PdfError
from rulebook2game.extract.records import Box, Glyph, RawPage, Shape, ShapeKind

# pdfminer reports recoverable oddities through logging; a library stays quiet unless the
# application configures logging itself.
logging.getLogger("pdfminer").addHandler(logging.NullHandler())

_DAMAGED: tuple[type[BaseException], ...] = (
    PSException,
    zlib.error,
    struct.error,
    KeyError,
    IndexError,
    TypeError,
    ValueError,
    AttributeError,
    AssertionError,
    OverflowError,
    RecursionError,
    EOFError,
    UnicodeError,
)
"""What pdfminer raises on malformed input (its own errors and the ones it lets through)."""


def check_input(path: Path) -> None:
    """Reject paths that cannot be a PDF before parsing anything.

    Raises:
        PdfError: missing file, directory, empty file, or no ``%PDF-`` header.
    """
    if not path.exists():
        raise PdfError(f"{path}: no such file")
    if path.is_dir():
        raise PdfError(f"{path} is a directory, not a PDF file")
    try:
        with path.open("rb") as fh:
            head = fh.read(1024)
    except OSError as exc:
        raise PdfError(f"{path} cannot be read: {exc.strerror or exc}") from exc
    if not head:
        raise PdfError(f"{path} is empty, not a PDF file")
    if b"%PDF-" not in head:
        raise PdfError(f"{path} is not a PDF file (it has no %PDF- header)")


class PdfFile:
    """An open PDF: its pages and metadata; read pages one at a time with :meth:`page`."""

    def __init__(self, path: Path, fh: BinaryIO, document: PDFDocument) -> None:
        self.path = path
        self._fh = fh
        self._document = document
        self._pages: list[PDFPage] = _guard(path, lambda: list(PDFPage.create_pages(document)))
        self._resources = PDFResourceManager(caching=True)
        self._device = PDFPageAggregator(self._resources, laparams=None)
        self._interpreter = PDFPageInterpreter(self._resources, self._device)

    @property
    def page_count(self) -> int:
        """Number of pages in the file."""
        return len(self._pages)

    def metadata(self) -> dict[str, str]:
        """The document information dictionary (title, author, producer...), as text."""
        out: dict[str, str] = {}
        for info in self._document.info:
            for key, value in info.items():
                text = _as_text(value)
                if text:
                    out[str(key).lower()] = text
        return out

    def page(self, index: int) -> RawPage:
        """Read page ``index`` (0-based).

        Raises:
            PdfError: the page's content cannot be parsed.
        """

        def parse() -> LTPage:
            self._interpreter.process_page(self._pages[index])
            result: LTPage = self._device.get_result()
            return result

        layout = _guard(self.path, parse, f"page {index + 1} ")
        return _raw_page(index + 1, layout)


@contextmanager
def open_pdf(path: Path, password: str | None = None) -> Iterator[PdfFile]:
    """Open ``path`` for reading.

    Raises:
        PdfError: the file is missing, not a PDF, damaged, truncated or encrypted
            (without the right ``password``), or has no pages.
    """
    check_input(path)
    with path.open("rb") as fh:
        document = _open_document(path, fh, password)
        pdf = PdfFile(path, fh, document)
        if pdf.page_count == 0:
            raise PdfError(f"{path} has no pages")
        yield pdf


def _open_document(path: Path, fh: BinaryIO, password: str | None) -> PDFDocument:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            document = PDFDocument(PDFParser(fh), password=password or "")
    except PDFPasswordIncorrect as exc:
        if password is None:
            raise PdfError(f"{path} is encrypted; give its password with --password") from exc
        raise PdfError(f"{path}: wrong password") from exc
    except _DAMAGED as exc:
        if not _has_eof_marker(fh):
            raise PdfError(_TRUNCATED.format(path=path)) from exc
        raise PdfError(f"{path} is damaged and cannot be read ({_why(exc)})") from exc
    if any(isinstance(x, PDFXRefFallback) for x in document.xrefs) and not _has_eof_marker(fh):
        raise PdfError(_TRUNCATED.format(path=path))
    return document


_TRUNCATED = "{path} is truncated (it ends before the end-of-file marker); get a complete copy"


def _has_eof_marker(fh: BinaryIO) -> bool:
    fh.seek(0, 2)
    size = fh.tell()
    fh.seek(max(0, size - 2048))
    return b"%%EOF" in fh.read()


def _guard(path: Path, fn: Any, where: str = "") -> Any:
    """Run a pdfminer call, turning its failures on malformed input into one PdfError."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn()
    except _DAMAGED as exc:
        raise PdfError(f"{path} is damaged: {where}cannot be read ({_why(exc)})") from exc


def _why(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    name = type(exc).__name__
    return f"{name}: {text[:80]}" if text else name


def _as_text(value: Any) -> str:
    if isinstance(value, bytes):
        return decode_text(value).strip("\x00 ").strip()
    if isinstance(value, str):
        return value.strip()
    return ""


def _raw_page(number: int, layout: LTPage) -> RawPage:
    glyphs: list[Glyph] = []
    shapes: list[Shape] = []
    images: list[Box] = []
    left, top = layout.x0, layout.y1
    _collect(layout, left, top, glyphs, shapes, images)
    return RawPage(
        number=number,
        width=layout.width,
        height=layout.height,
        glyphs=tuple(glyphs),
        shapes=tuple(shapes),
        images=tuple(images),
    )


def _collect(
    container: Any,
    left: float,
    top: float,
    glyphs: list[Glyph],
    shapes: list[Shape],
    images: list[Box],
) -> None:
    for obj in container:
        if isinstance(obj, LTChar):
            glyphs.append(
                Glyph(
                    text=obj.get_text(),
                    x0=obj.x0 - left,
                    x1=obj.x1 - left,
                    top=top - obj.y1,
                    bottom=top - obj.y0,
                    baseline=top - obj.matrix[5],
                    font=obj.fontname,
                    size=round(obj.size, 2),
                    upright=bool(obj.upright),
                )
            )
        elif isinstance(obj, LTFigure):
            _collect(obj, left, top, glyphs, shapes, images)
        elif isinstance(obj, LTImage):
            images.append(Box(obj.x0 - left, top - obj.y1, obj.x1 - left, top - obj.y0))
        elif isinstance(obj, LTCurve):
            kind: ShapeKind = "curve"
            if isinstance(obj, LTRect):
                kind = "rect"
            elif isinstance(obj, LTLine):
                kind = "line"
            box = Box(obj.x0 - left, top - obj.y1, obj.x1 - left, top - obj.y0)
            fill = bool(obj.fill) and not _is_white(obj.non_stroking_color)
            shapes.append(Shape(kind, box, fill, bool(obj.stroke)))


def _is_white(color: Any) -> bool:
    """Whether a fill colour is (nearly) white; unknown colour spaces count as not white."""
    if isinstance(color, (int, float)):
        values: tuple[float, ...] = (float(color),)
    elif isinstance(color, (tuple, list)) and all(isinstance(c, (int, float)) for c in color):
        values = tuple(float(c) for c in color)
    else:
        return False
    if len(values) == 1:
        return values[0] > 0.97
    if len(values) == 3:
        return min(values) > 0.97
    if len(values) == 4:
        return max(values) < 0.03
    return False
