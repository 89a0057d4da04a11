"""The kit every game is built on; :mod:`bot.games.base` gathers its names in one place."""
