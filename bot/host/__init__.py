"""The game host: the game service (per-game locking, apply, persist, notify), the
storage, the ratings and the AI workers. No Discord here: ids in, view models out."""
