"""Practice matches (unrated, with hints) and guided ones (/learn) at the service tier."""

from __future__ import annotations

import pytest

from bot.games import GAMES
from bot.games.base import Rng, player_counts
from bot.games.search import hint, hint_seed
from bot.service import MatchService, errors, practice
from bot.service.lobby_flow import default_options
from db.repository import Repository
from tests.postgres import postgres_server  # noqa: F401  (the repo fixture's server)
from tests.service.test_service import HOST, host_plays_to_the_end, lobby, wait_for


async def practice_match(svc: MatchService, variant: str = "tourney"):
    m = await lobby(svc, variant)
    m = await svc.set_option(m.id, HOST, practice.KEY, practice.PRACTICE)
    await svc.add_ai(m.id, HOST)
    return await svc.start(m.id, HOST)


async def test_a_practice_match_stores_no_result_rating_or_standing(
    svc: MatchService, repo: Repository
) -> None:
    m = await practice_match(svc)
    assert m.practice
    await wait_for(host_plays_to_the_end(svc, m.id))
    assert (await svc.get(m.id)).status == "finished"
    assert await repo.results(m.id) == []
    assert await svc.history.skill_changes(m.id) == {}


async def test_the_practice_option_is_the_platform_s_and_checked(svc: MatchService) -> None:
    m = await lobby(svc)
    assert not m.practice
    with pytest.raises(errors.LobbyError):
        await svc.set_option(m.id, HOST, practice.KEY, "sometimes")
    m = await svc.set_option(m.id, HOST, practice.KEY, practice.PRACTICE)
    assert m.practice and m.record.options["variant"] == "defend"


async def test_a_hint_is_the_hard_ai_s_move_from_the_seat_s_view(repo: Repository) -> None:
    svc = MatchService(repo, ai_delay=60)  # the AI seat waits: the match stays at one version
    m = await practice_match(svc)
    snap = await svc.get(m.id)
    assert 0 in snap.to_act()
    first = await svc.hints.hint(m.id, HOST)
    again = await svc.hints.hint(m.id, HOST)
    assert first == again
    expected = hint(snap.game, snap.state, 0, hint_seed(snap.record.seed, snap.version, 0))
    assert first.move.code == expected.move.code and first.reason == expected.reason
    assert any(move.code == first.move.code for move in snap.legal_moves(0))
    with pytest.raises(errors.NotSeated):
        await svc.hints.hint(m.id, 999)
    await svc.close()


async def test_a_rated_match_refuses_a_hint_in_one_sentence(svc: MatchService) -> None:
    m = await lobby(svc, "tourney")
    await svc.add_ai(m.id, HOST)
    m = await svc.start(m.id, HOST)
    with pytest.raises(errors.NotPractice) as refused:
        await svc.hints.hint(m.id, HOST)
    text = str(refused.value)
    assert text.endswith(".") and text.count(". ") == 0 and "practice" in text


async def test_learn_starts_a_guided_match_that_explains_each_situation_once(
    svc: MatchService, repo: Repository
) -> None:
    m = await svc.learn(guild_id=1, channel_id=9, user_id=HOST, name="Host", game_id="crown")
    assert m.status == "running" and m.practice and practice.is_guided(m.record.options)
    assert [seat.ai for seat in m.seats] == [False, True]
    told = [t for t in m.notes_for(0) if t.startswith(practice.GUIDE_MARK)]
    assert told, "the first situation is explained as the match starts"
    await wait_for(host_plays_to_the_end(svc, m.id))
    done = await svc.get(m.id)
    keys = done.record.notes[practice.EXPLAINED]["0"]
    assert len(keys) == len(set(keys)) >= 1
    assert "1" not in done.record.notes[practice.EXPLAINED] or not done.record.notes[practice.EXPLAINED]["1"]
    assert not any(practice.GUIDE_MARK in line for line in done.log()), "never in public"
    assert await repo.results(m.id) == []


async def test_explained_keys_survive_a_restart_and_are_not_told_again(repo: Repository) -> None:
    first = MatchService(repo, ai_delay=0)
    m = await first.learn(guild_id=1, channel_id=9, user_id=HOST, name="Host", game_id="crown")
    told = list(m.record.notes[practice.EXPLAINED]["0"])
    await first.close()
    second = MatchService(repo, ai_delay=0)
    try:
        await second.restore()
        snap = await second.get(m.id)
        assert snap.record.notes[practice.EXPLAINED]["0"] == told
        await wait_for(host_plays_to_the_end(second, m.id))
        done = await second.get(m.id)
        keys = done.record.notes[practice.EXPLAINED]["0"]
        assert keys[: len(told)] == told and len(keys) == len(set(keys))
    finally:
        await second.close()


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_learn_plays_the_options_a_game_declares_for_a_lesson(svc: MatchService, game_id: str) -> None:
    game = GAMES[game_id]
    m = await svc.learn(guild_id=1, channel_id=20, user_id=HOST, name="Host", game_id=game_id)
    for key, value in game.info.lesson:
        assert m.record.options[key] == value
        assert value in {v for o in game.options if o.key == key for v, _ in o.choices}
    await svc.cancel(m.id, HOST, is_admin=False)


def test_the_long_games_teach_with_a_short_match() -> None:
    assert dict(GAMES["dynasty"].info.lesson) == {"hands": "1"}
    assert dict(GAMES["court"].info.lesson) == {"target": "120"}


class ThreeAtOnce:
    """A game whose every state is three new situations at once."""

    def situations(self, state: object, seat: int) -> tuple[tuple[str, str], ...]:
        return (("a", "First."), ("b", "Second."), ("c", "Third."))


def test_at_most_two_explanations_are_told_at_once_and_the_rest_wait() -> None:
    """A new player's hand says a few lines, not a wall of text: the first two now, the third
    the next time its situation comes up."""
    game = ThreeAtOnce()
    events, explained = practice.explain(game, None, [0], {})  # type: ignore[arg-type]
    assert [e.text for e in events] == ["💡 First.", "💡 Second."] and all(e.seat == 0 for e in events)
    events, explained = practice.explain(game, None, [0], {practice.EXPLAINED: explained})  # type: ignore[arg-type]
    assert [e.text for e in events] == ["💡 Third."] and explained == {"0": ["a", "b", "c"]}
    assert practice.explain(game, None, [0], {practice.EXPLAINED: explained}) == ([], None)  # type: ignore[arg-type]


def lesson_keys(game_id: str, seed: int) -> list[str]:
    """The situations a /learn match of ``game_id`` explains to its learner (seat 0), the
    learner and the AI seats all playing the game's AI."""
    game = GAMES[game_id]
    options = practice.of_game(default_options(game, (*game.info.lesson, (practice.KEY, practice.GUIDED))))
    state = game.setup(player_counts(game, options)[0], seed, options)
    notes: dict[str, object] = {}
    rng = Rng.from_seed(seed)
    for _ in range(3_000):
        _, explained = practice.explain(game, state, [0], notes)
        notes = practice.with_explained(notes, explained)
        if game.outcome(state) is not None:
            break
        seat, rng = rng.choice(sorted(game.to_act(state)))
        _, rng = rng.next64()
        state, _ = game.apply(state, seat, game.ai_move(state, seat, rng))
    told = notes.get(practice.EXPLAINED, {})
    assert isinstance(told, dict)
    return list(told.get("0", []))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_lesson_teaches_several_situations(game_id: str) -> None:
    """Every game's /learn match explains at least three kinds of situation on average over
    five matches (King and Crown's Defend the King used to explain only two)."""
    counts = [len(lesson_keys(game_id, seed)) for seed in range(1, 6)]
    assert sum(counts) >= 3 * len(counts) and min(counts) >= 2, counts


def test_a_court_lesson_first_says_what_the_game_is_about() -> None:
    """King's Court's first decision explains the goal (the learner's secret King, what
    scores, knocking, the match's target) before anything else, once, beside that turn's
    own explanation (two at once at most)."""
    game = GAMES["court"]
    state = game.setup(4, 1, {"target": "120"})
    assert state.turn != 0
    assert practice.explain(game, state, [0], {}) == ([], None), "nothing while an AI seat leads"
    while state.turn != 0:
        state, _ = game.apply(state, state.turn, game.ai_move(state, state.turn, Rng.from_seed(1)))
    events, explained = practice.explain(game, state, [0], {})
    assert [e.seat for e in events] == [0, 0] and explained == {"0": ["goal", "follow"]}
    assert events[0].text.startswith(practice.GUIDE_MARK + "Your King is secret and its suit is yours"), (
        events
    )
    for seed in (1, 2):
        keys = lesson_keys("court", seed)
        assert keys[0] == "goal" and keys.count("goal") == 1, keys
