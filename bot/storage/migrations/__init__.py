"""Numbered SQL migrations, applied in order by :func:`bot.storage.migrate`.

Files are named ``NNNN_short_name.sql`` and numbered from 0001 without gaps;
the number is the ``PRAGMA user_version`` the database has once the file is
applied. Each file runs in its own transaction. End every statement with
``;`` at the end of a line (trigger bodies may span lines). Never edit a
shipped file: add the next number instead.
"""
