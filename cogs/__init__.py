"""Slash commands, thin: parse options and hand over to bot.ui.flow. Loaded by name."""
