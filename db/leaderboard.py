"""Seasons, standings and champions: every SQL statement of the leaderboards, by concern in
``db.leaderboard_records`` (tables, records, the board order), ``db.seasons`` (seasons and
champions) and ``db.standings`` (each board's standings); every name is reachable from here.

The functions taking a ``Connection`` are plain synchronous SQLAlchemy Core, run on the
writer's connection (``Repository.write``; on a SQLite file a match's last move hands them a
:class:`db.direct.Direct` instead): the repository calls :func:`current_season_id` and
:func:`record_match` inside the transaction of the move that finishes a match, so a result
row and the standings it changes are written together or not at all.
:class:`db.leaderboard_store.LeaderboardStore` wraps the rest for the service (reads on the reader pool, writes on
the repository's single writer connection).

Every query is scoped by guild: one server never reads another's rows.
"""

from __future__ import annotations

from db.leaderboard_records import (
    BOARD_SORTS,
    CH,
    NAME_LIMIT,
    PODIUM,
    RANK_ORDER,
    RS,
    SE,
    ST,
    BoardSlice,
    ChampionRecord,
    EmptySeason,
    PlayerBoard,
    RecentResult,
    Rollover,
    SeasonRecord,
    StandingRecord,
    board_order,
    board_where,
    ch_table,
    champion_record,
    rs_table,
    se_table,
    season_record,
    st_table,
    standing_record,
)
from db.seasons import (
    champions,
    current_season_id,
    ensure_season,
    open_season,
    roll_season,
    season_by_number,
    seasons,
)
from db.standings import (
    board_matches,
    board_slice,
    player_boards,
    rebuild_board,
    recent_results,
    record_match,
    replay,
)

__all__ = [
    "BOARD_SORTS",
    "CH",
    "NAME_LIMIT",
    "PODIUM",
    "RANK_ORDER",
    "RS",
    "SE",
    "ST",
    "BoardSlice",
    "ChampionRecord",
    "EmptySeason",
    "PlayerBoard",
    "RecentResult",
    "Rollover",
    "SeasonRecord",
    "StandingRecord",
    "board_matches",
    "board_order",
    "board_slice",
    "board_where",
    "ch_table",
    "champion_record",
    "champions",
    "current_season_id",
    "ensure_season",
    "open_season",
    "player_boards",
    "rebuild_board",
    "recent_results",
    "record_match",
    "replay",
    "roll_season",
    "rs_table",
    "se_table",
    "season_by_number",
    "season_record",
    "seasons",
    "st_table",
    "standing_record",
]
