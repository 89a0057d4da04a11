"""Discord presentation: embeds, persistent components and the interaction flow."""
