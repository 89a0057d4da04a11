"""Every persistent component class, for ``bot.add_dynamic_items`` and the stray-id check."""

from __future__ import annotations

from bot.ui.hand import HAND_ITEMS
from bot.ui.help import HELP_ITEMS
from bot.ui.leaving import LEAVING_ITEMS
from bot.ui.lobby import LOBBY_ITEMS
from bot.ui.party import PARTY_ITEMS
from bot.ui.replay import REPLAY_ITEMS
from bot.ui.rules import RULES_ITEMS
from bot.ui.table import TABLE_ITEMS

DYNAMIC_ITEMS = (
    *LOBBY_ITEMS,
    *HAND_ITEMS,
    *TABLE_ITEMS,
    *RULES_ITEMS,
    *PARTY_ITEMS,
    *HELP_ITEMS,
    *REPLAY_ITEMS,
    *LEAVING_ITEMS,
)
