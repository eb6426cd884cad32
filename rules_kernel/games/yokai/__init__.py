"""Yōkai no Mori: 3x4 (Dōbutsu shōgi) and 5x6 (Gorogoro shōgi). The module became a package
(issue 45): this commit only moves it to `rules.py`, so its history follows; the split into
one module a concern comes next. Every name stays importable from `rules_kernel.games.yokai`."""

from rules_kernel.games.yokai.rules import *  # noqa: F403
from rules_kernel.games.yokai.rules import GAMES  # noqa: F401
from rules_kernel.games.yokai.rules import _in_check as _in_check
from rules_kernel.games.yokai.rules import _is_drop_mate as _is_drop_mate
from rules_kernel.games.yokai.rules import _legal_moves as _legal_moves
from rules_kernel.games.yokai.rules import _make as _make
from rules_kernel.games.yokai.rules import _pseudo_moves as _pseudo_moves
