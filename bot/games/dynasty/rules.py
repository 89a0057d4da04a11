RULES = ("placeholder",)
