"""The ``rbg`` target: Regular Boardgames descriptions lowered to one rl program."""
