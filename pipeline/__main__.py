"""`python -m rulebook2game` is the same as the `rulebook2game` command."""

from rulebook2game.cli import main

main()
