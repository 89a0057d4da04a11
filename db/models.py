"""SQLModel tables. Game state is stored as opaque JSON text; engines never see rows."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, String, Text, UniqueConstraint, text
from sqlmodel import Field, SQLModel

from db.records import MatchStatus


class Match(SQLModel, table=True):
    __tablename__ = "matches"
    __table_args__ = (
        Index("ix_matches_channel_status", "channel_id", "status"),
        Index("ix_matches_status", "status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    channel_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    message_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    turn_message_id: int | None = Field(
        default=None, sa_column=Column(BigInteger, nullable=True)
    )  # the "your turn" ping
    host_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    game_id: str = Field(max_length=32)
    options: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    status: str = Field(default=MatchStatus.LOBBY.value, max_length=16)  # a MatchStatus value
    seats: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    version: int = 0
    seed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))  # 62-bit seeds
    state: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    notes: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    deadline_at: float | None = None
    deadline: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: float = 0.0
    updated_at: float = 0.0
    finished_at: float | None = None


class MoveLog(SQLModel, table=True):
    __tablename__ = "moves"
    # The unique (match_id, version) index also serves every lookup by match: no index of its own.
    __table_args__ = (UniqueConstraint("match_id", "version", name="uq_moves_match_version"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id")
    version: int
    seat: int
    user_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    code: str = Field(max_length=120)
    created_at: float = 0.0


class Result(SQLModel, table=True):
    __tablename__ = "results"
    __table_args__ = (
        Index("ix_results_board", "guild_id", "game_id", "season_id", "user_id"),
        Index("ix_results_user", "guild_id", "user_id", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    game_id: str = Field(max_length=32)
    season_id: int | None = None
    user_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    seat: int
    is_ai: bool = False
    place: int
    score: int | None = None
    team: str | None = Field(default=None, max_length=32)
    players: int
    has_ai: bool = False
    left: bool = False
    created_at: float = 0.0
    skill_change: float | None = None  # the player's change of skill (μ − 3σ) by this match, if rated


class GuildConfig(SQLModel, table=True):
    """Per-server settings; a missing row means the defaults."""

    __tablename__ = "guild_config"
    __table_args__ = (Index("uq_guild_config_web_key", "web_key", unique=True),)

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    turn_seconds: int | None = None  # None: the bot's default; 0: no turn timer
    turn_pings: bool | None = None  # None: on
    text_only: bool | None = None  # None: off (card pictures shown)
    web_key: str | None = Field(
        default=None, sa_column=Column(String(64), nullable=True)
    )  # the address of the server's web pages, /s/<key>/ (None: off)
    updated_at: float = 0.0


class UserSettings(SQLModel, table=True):
    """Per-user settings, the same in every server; a missing row means the defaults."""

    __tablename__ = "user_settings"

    user_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    turn_pings: bool | None = None  # None: on
    text_only: bool | None = None  # None: off
    updated_at: float = 0.0


# --- seasons, standings and champions (leaderboards) -------------------------------------


class Season(SQLModel, table=True):
    """A guild's season; the open one has ``ended_at`` NULL (at most one per guild)."""

    __tablename__ = "seasons"
    __table_args__ = (
        UniqueConstraint("guild_id", "number", name="uq_seasons_guild_number"),
        Index(
            "uq_seasons_one_open",
            "guild_id",
            unique=True,
            sqlite_where=text("ended_at IS NULL"),
            postgresql_where=text("ended_at IS NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    number: int
    name: str = Field(max_length=64)
    started_at: float = 0.0
    ended_at: float | None = None


class Standing(SQLModel, table=True):
    """One player's line on one board (guild, game, season), kept up to date from results."""

    __tablename__ = "standings"
    __table_args__ = (UniqueConstraint("season_id", "game_id", "user_id", name="uq_standings_player"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    game_id: str = Field(max_length=32)
    season_id: int = Field(foreign_key="seasons.id")
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: the leaderboard's sort key
    rated: int = 0  # matches that changed the rating (no AI seats)
    played: int = 0
    wins: int = 0
    losses: int = 0
    points: int = 0
    scored: int = 0  # matches that gave points
    last_at: float = 0.0
    place_score: float = 0.0  # average placing score (1 always first, 0 always last): breaks rating ties


# The leaderboard page walks this index in order: no sort, no scan of the board.
Index(
    "ix_standings_rank",
    Standing.guild_id,  # type: ignore[arg-type]
    Standing.game_id,
    Standing.season_id,  # type: ignore[arg-type]
    Standing.ordinal.desc(),  # type: ignore[attr-defined]
    Standing.place_score.desc(),  # type: ignore[attr-defined]
    Standing.wins.desc(),  # type: ignore[attr-defined]
    Standing.played,  # type: ignore[arg-type]
    Standing.user_id,  # type: ignore[arg-type]
)
Index("ix_standings_user", Standing.guild_id, Standing.user_id)  # type: ignore[arg-type]


class Champion(SQLModel, table=True):
    """The top three of a game when its season closed."""

    __tablename__ = "champions"
    __table_args__ = (
        UniqueConstraint("season_id", "game_id", "place", name="uq_champions_place"),
        Index("ix_champions_guild", "guild_id", "season_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    season_id: int = Field(foreign_key="seasons.id")
    game_id: str = Field(max_length=32)
    place: int
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    ordinal: float
    played: int
    wins: int
    points: int = 0


# --- parties: several tables at once, winners moving on --------------------------------------


class Party(SQLModel, table=True):
    """A party: its lobby, options, players (JSON) and the round it is in (0: lobby)."""

    __tablename__ = "parties"
    __table_args__ = (Index("ix_parties_channel_status", "channel_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    channel_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    message_id: int | None = Field(
        default=None, sa_column=Column(BigInteger, nullable=True)
    )  # lobby, then standings
    host_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    game_id: str = Field(max_length=32)
    options: str = Field(default="{}", sa_column=Column(Text, nullable=False))  # the matches' options
    tables: int = 2
    rounds: int = 3
    round: int = 0
    status: str = Field(default=MatchStatus.LOBBY.value, max_length=16)  # a MatchStatus value
    players: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    seed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    version: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    finished_at: float | None = None


class PartyTable(SQLModel, table=True):
    """One table of one round: its seating (party player indices, -1 for an AI fill seat),
    the thread it plays in, its match, and the seats' results once the match is over."""

    __tablename__ = "party_tables"
    __table_args__ = (UniqueConstraint("party_id", "round", "table_no", name="uq_party_tables_place"),)

    id: int | None = Field(default=None, primary_key=True)
    party_id: int = Field(foreign_key="parties.id", index=True)
    round: int
    table_no: int
    seating: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    match_id: int | None = Field(default=None, foreign_key="matches.id", index=True)
    channel_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))  # its thread
    results: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class PartyResult(SQLModel, table=True):
    """A person's result in a finished party (for /stats)."""

    __tablename__ = "party_results"
    __table_args__ = (Index("ix_party_results_user", "guild_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    party_id: int = Field(foreign_key="parties.id", index=True)
    guild_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    place: int
    score: int
    won: bool = False
    left: bool = False
    created_at: float = 0.0


class TableMark(SQLModel, table=True):
    """What a running match's Discord messages show, so that a restart leaves them as they
    are: the version its table shows, and whom its turn message pinged (JSON: the awaited
    seats and the deadline). Written by the Discord layer a moment after it changes them."""

    __tablename__ = "table_marks"

    match_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    shown: int | None = None
    pinged: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
