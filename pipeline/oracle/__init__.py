"""Reference engines the generated engines are compared against (OpenSpiel first).

``load_oracle("openspiel:connect_four")`` returns an engine satisfying
:class:`rulebook2game.engine.Engine` whose actions are canonical action texts.
"""

from rulebook2game.oracle.adapter import Adapter, Rule
from rulebook2game.oracle.openspiel import OpenSpielEngine
from rulebook2game.oracle.registry import load_oracle, oracle_names

__all__ = ["Adapter", "OpenSpielEngine", "Rule", "load_oracle", "oracle_names"]
