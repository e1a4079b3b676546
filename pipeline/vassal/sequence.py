"""Vassal's sequence encoding: tokens joined by one delimiter character.

Vassal stores nested structures as flat text. A sequence of tokens is joined
by a delimiter (``;``, ``,``, ``/``, tab, ESC, ...); the rules, as Vassal's
``SequenceEncoder`` applies them, are:

- an occurrence of the delimiter inside a token is preceded by a backslash;
  no other character is escaped (a lone backslash stays as it is);
- a token that ends with a backslash, or that starts and ends with a single
  quote, is wrapped in single quotes, so that its last backslash cannot be
  taken for an escape and its own quotes survive the decoder;
- the decoder removes one backslash in front of each escaped delimiter, and
  strips one pair of surrounding single quotes from a token longer than one
  character.

Nesting works because every level escapes the delimiters of the level it
wraps: a tab-delimited trait chain inside a ``/``-delimited command inside an
ESC-delimited log keeps its structure through each round of escaping.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

_BACKSLASH = "\\"
_QUOTE = "'"


def encode(tokens: Iterable[str], delimiter: str) -> str:
    """Join ``tokens`` with ``delimiter`` the way Vassal's encoder does.

    An empty iterable gives the empty string, which decodes to one empty token
    (Vassal cannot tell the two apart either).
    """
    _check_delimiter(delimiter)
    return delimiter.join(_encode_token(token, delimiter) for token in tokens)


def decode(value: str, delimiter: str) -> list[str]:
    """Split ``value`` into its tokens; the inverse of :func:`encode`."""
    _check_delimiter(delimiter)
    return [_unquote(_unescape(t, delimiter)) for t in _unescaped(delimiter).split(value)]


class SequenceDecoder:
    """Reads the tokens of an encoded sequence one at a time.

    Reading one token at a time matters where Vassal itself does so: a trait
    chain is read as "this trait" and then "all the rest", and the second read
    unescapes the whole remainder in one go.
    """

    def __init__(self, value: str | None, delimiter: str) -> None:
        _check_delimiter(delimiter)
        self._rest = value
        self._delimiter = delimiter

    def has_more(self) -> bool:
        """Whether another token can be read."""
        return self._rest is not None

    def next(self, default: str | None = None) -> str:
        """Read the next token, or return ``default`` when none is left.

        Raises:
            IndexError: no token is left and no default was given.
        """
        if self._rest is None:
            if default is None:
                raise IndexError("no more tokens in the sequence")
            return default
        token, self._rest = _split_first(self._rest, self._delimiter)
        return _unquote(token)

    def next_int(self, default: int) -> int:
        """Read the next token as an integer, or ``default`` if absent or not a number."""
        if self._rest is None:
            return default
        try:
            return int(self.next())
        except ValueError:
            return default

    def rest(self) -> list[str]:
        """Read every remaining token."""
        tokens: list[str] = []
        while self.has_more():
            tokens.append(self.next())
        return tokens


def split_nested(value: str, delimiter: str) -> list[str]:
    """Split a nested pair chain ``a<d>(b<d>(c...))`` into ``[a, b, c, ...]``.

    Vassal nests a piece's traits as pairs: each trait's text, then the
    encoding of everything it wraps, so that the separator after the k-th
    trait carries k escaping backslashes. Reading it pair by pair, as Vassal
    does, rescans the rest at every level;
    this reads it in one pass by counting the backslashes in front of each
    delimiter, with the same result, quotes included.
    """
    marks = _delimiter_runs(value, delimiter)
    # least_after[j]: the fewest backslashes in front of any delimiter from mark j on.
    least_after = [len(value) + 1] * (len(marks) + 1)
    for j in range(len(marks) - 1, -1, -1):
        least_after[j] = min(marks[j][1], least_after[j + 1])
    parts: list[str] = []
    start, end, level, i = 0, len(value), 0, 0
    while True:
        while i < len(marks) and (marks[i][0] < start or marks[i][1] > level):
            i += 1
        sep = marks[i][0] if i < len(marks) and marks[i][0] < end else None
        # A separator's own backslashes were taken off by the levels above.
        token = value[start : end if sep is None else sep - marks[i][1]]
        parts.append(_unquote(token.replace(_BACKSLASH * (level + 1) + delimiter, delimiter)))
        if sep is None:
            return parts
        # The rest ends early at a delimiter that was unescaped at this level (never in
        # well-formed text, whose deeper separators carry more backslashes).
        cut = None
        if least_after[i + 1] <= level:
            cut = next((p - run for p, run in marks[i + 1 :] if p < end and run <= level), None)
        start, end, level, i = sep + 1, end if cut is None else cut, level + 1, i + 1
        if end - start > 1 and value[start] == _QUOTE and value[end - 1] == _QUOTE:
            start, end = start + 1, end - 1


def _delimiter_runs(value: str, delimiter: str) -> list[tuple[int, int]]:
    """Each delimiter's position with the number of backslashes right before it."""
    return [(m.end() - 1, m.end() - 1 - m.start()) for m in _with_run(delimiter).finditer(value)]


def _encode_token(token: str, delimiter: str) -> str:
    escaped = token.replace(delimiter, _BACKSLASH + delimiter)
    needs_quotes = token.endswith(_BACKSLASH) or (
        token.startswith(_QUOTE) and token.endswith(_QUOTE)
    )
    return f"{_QUOTE}{escaped}{_QUOTE}" if needs_quotes else escaped


def _split_first(value: str, delimiter: str) -> tuple[str, str | None]:
    """Return the first token of ``value`` (escapes removed) and what follows it.

    The token ends at the first delimiter without a backslash in front of it;
    inside it, each backslash-delimiter pair becomes the delimiter.
    """
    match = _unescaped(delimiter).search(value)
    if match is None:
        return _unescape(value, delimiter), None
    return _unescape(value[: match.start()], delimiter), value[match.start() + 1 :]


def _unescape(token: str, delimiter: str) -> str:
    return token.replace(_BACKSLASH + delimiter, delimiter)


def _unquote(token: str) -> str:
    if len(token) > 1 and token.startswith(_QUOTE) and token.endswith(_QUOTE):
        return token[1:-1]
    return token


@functools.cache
def _unescaped(delimiter: str) -> re.Pattern[str]:
    """A delimiter with no backslash right before it."""
    return re.compile(r"(?<!\\)" + re.escape(delimiter))


@functools.cache
def _with_run(delimiter: str) -> re.Pattern[str]:
    """A delimiter with the whole run of backslashes right before it."""
    return re.compile(r"\\*" + re.escape(delimiter))


def _check_delimiter(delimiter: str) -> None:
    if len(delimiter) != 1 or delimiter in (_BACKSLASH, _QUOTE):
        raise ValueError(
            f"a sequence delimiter is one character other than \\ and ': {delimiter!r}"
        )
