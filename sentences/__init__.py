"""Where sentences are made: the story of a turn, the coach's words, the texts of hands,
status and score tables, and the ticket planner told in words. Pure functions over the game
host's view models and a reader's :class:`words.Words`; the words themselves are the
catalogs' (``words/``)."""
