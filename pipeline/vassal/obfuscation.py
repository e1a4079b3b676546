"""The obfuscation of a saved game's command log (the ``savedGame`` zip entry).

Vassal writes ``!VCSK``, then the key as two hex digits, then every byte of
the UTF-8 text XORed with the key, as two hex digits each. It is a deterrent
against casual editing, not encryption. Text without the header is read as
it is, as Vassal does.
"""

from __future__ import annotations

from rulebook2game.errors import ModuleError

HEADER = b"!VCSK"
"""The bytes that open an obfuscated command log."""


def obfuscate(text: str, key: int) -> bytes:
    """Encode ``text`` the way Vassal writes a ``savedGame`` entry.

    Args:
        text: the command log.
        key: a byte, 0-255.
    """
    if not 0 <= key <= 255:
        raise ValueError(f"the key is one byte, got {key}")
    body = text.encode("utf-8").translate(_xor_table(key))
    return HEADER + f"{key:02x}".encode("ascii") + body.hex().encode("ascii")


def deobfuscate(data: bytes, *, what: str = "savedGame") -> str:
    """Decode a ``savedGame`` entry into the command log text.

    Raises:
        ModuleError: the hex is malformed, or the decoded bytes are not UTF-8
            (a wrong key gives bytes that are not text).
    """
    if not data.startswith(HEADER):
        return _as_text(data, what)
    payload = data[len(HEADER) :]
    if len(payload) < 2 or len(payload) % 2:
        raise ModuleError(f"{what}: the obfuscated data has an odd number of hex digits")
    try:
        raw = bytes.fromhex(payload.decode("ascii"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ModuleError(f"{what}: the obfuscated data is not hex digits") from exc
    key, body = raw[0], raw[1:]
    return _as_text(body.translate(_xor_table(key)), what)


def _as_text(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ModuleError(
            f"{what}: not readable text (wrong key or not a Vassal command log)"
        ) from exc


def _xor_table(key: int) -> bytes:
    return bytes(b ^ key for b in range(256))
