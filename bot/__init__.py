"""King card games for Discord."""
