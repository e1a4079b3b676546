"""``rulebook2game serve``: the table and the review of a game directory in a browser.

A Starlette app (:func:`~rulebook2game.serve.app.create_app`) served by uvicorn. The
table is a :class:`~rulebook2game.play.table.Table` per browser session, kept on the
server under a random id; the page is plain HTML with a small script that builds the
controls from the legal actions. The review view (:mod:`~rulebook2game.serve.review`)
shows the rulebook with the pages that cite each sentence, the latest check report's
findings (each counterexample playable step by step on the table) and ``diff`` output.
"""

from rulebook2game.serve.app import create_app

__all__ = ["create_app"]
