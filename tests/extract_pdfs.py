"""Small PDFs for the extraction tests, built at test time (never committed)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from reportlab.lib import pdfencrypt
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.canvas import Canvas


def assemble(objects: list[bytes]) -> bytes:
    """A PDF file whose object ``i + 1`` is ``objects[i]``; object 1 is the catalog."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _stream(data: bytes) -> bytes:
    return f"<< /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"


def zero_pages(path: Path) -> Path:
    """A well-formed PDF whose page tree is empty."""
    path.write_bytes(
        assemble([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"])
    )
    return path


def broken_ligatures(path: Path) -> Path:
    """Text whose "fi" ligature glyph is mapped to a bare "f" (as wide as "fi")."""
    widths = list(getFont("Helvetica").widths[32:256])
    widths[0xAE - 32] = 500  # the width of Helvetica's "fi" ligature, on a glyph named "f"
    font = (
        "<< /Type /Font /Subtype /Type1 /BaseFont /RulebookSans /FirstChar 32 /LastChar 255 "
        f"/Widths [{' '.join(map(str, widths))}] /FontDescriptor 6 0 R "
        "/Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [174 /f] >> >>"
    ).encode()
    lines = [b"The \xaerst player \xaends the \xaeve \xaelms.", b"Then the next player moves."]
    content = b"BT /F1 12 Tf 14 TL 40 250 Td " + b" ".join(b"(" + t + b") '" for t in lines)
    content += b" ET"
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 300] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>"
    )
    path.write_bytes(
        assemble(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                page,
                font,
                _stream(content),
                b"<< /Type /FontDescriptor /FontName /RulebookSans /Flags 32 "
                b"/FontBBox [-166 -225 1000 931] /ItalicAngle 0 /Ascent 718 /Descent -207 "
                b"/CapHeight 718 /StemV 88 >>",
            ]
        )
    )
    return path


def text_pdf(path: Path, lines: list[str], password: str | None = None) -> Path:
    """A one-page PDF of plain lines (encrypted with ``password`` if given)."""
    encrypt = pdfencrypt.StandardEncryption(password, ownerPassword="owner") if password else None
    canvas = Canvas(str(path), encrypt=encrypt, invariant=1)
    y = 780.0
    for line in lines:
        canvas.drawString(60, y, line)
        y -= 14
    canvas.showPage()
    canvas.save()
    return path


def image_only(path: Path) -> Path:
    """A scan-like PDF: one page holding only an image."""
    canvas = Canvas(str(path), invariant=1)
    picture = Image.new("L", (120, 160), color=200)
    canvas.drawImage(ImageReader(picture), 60, 200, width=400, height=520)
    canvas.showPage()
    canvas.save()
    return path
