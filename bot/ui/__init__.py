"""Discord presentation: embeds, persistent components, and what each interaction does."""
