"""Extraction fixtures and their score: structured sources rendered by real layout engines.

Run ``python -m rulebook2game.extract_eval`` for the score table (see ``evals/extraction.md``).
"""
