"""The one reader of rl's lexical surface: what part of a line is code.

Every tool that looks into page text without parsing it (the target's own checks, the
page index of findings, the mutation operators, the name mangler) asks this module which
columns are code, so a ``#`` inside a string is never taken for a comment and a word in
a comment is never taken for a call. RulePage pages hold rl code, so they use it too.
"""

from __future__ import annotations

QUOTES = "\"'"


def code_mask(line: str) -> str:
    """``line`` with string contents and the comment replaced by spaces (same length).

    The quotes themselves stay, so a literal still reads as one (``"x#y"`` -> ``"   "``).
    """
    out: list[str] = []
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and i + 1 < len(line):
                out.append("  ")
                i += 2
                continue
            out.append(ch if ch == quote else " ")
            if ch == quote:
                quote = ""
        elif ch in QUOTES:
            out.append(ch)
            quote = ch
        elif ch == "#":
            out.append(" " * (len(line) - i))
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def code_of(line: str) -> str:
    """The code of ``line``: :func:`code_mask` without the trailing blanks."""
    return code_mask(line).rstrip()
