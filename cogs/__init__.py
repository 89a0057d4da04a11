"""Slash commands, thin: parse options and hand over to bot.ui (commands, lobby). Loaded by name."""
