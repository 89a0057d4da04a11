"""Example games: complete, tiny engines that show how a game is written (docs/ADDING_A_GAME.md).

They run through every generic test suite but are not offered in ``/play``: they are listed in
``bot.games.EXAMPLES``, not in ``bot.games.GAMES``.
"""
