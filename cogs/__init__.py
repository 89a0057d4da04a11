"""Slash commands, thin: parse options and hand over to bot.ui (commands, lobby, party, rules,
leaderboard, replies). Loaded by name."""
