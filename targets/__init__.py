"""Target DSLs: one folder each with the language notes, compile step and engine adapter."""
