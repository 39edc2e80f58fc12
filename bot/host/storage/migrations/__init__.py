"""Numbered SQL migrations, applied in order when a database is opened.

This folder holds the SQLite files; ``postgres/`` holds the PostgreSQL files
with the same numbers and names (the same schema in each dialect: version n
means the same tables, columns and rules on both backends).

Files are named ``NNNN_short_name.sql`` and numbered from 0001 without gaps;
the number is the schema version the database has once the file is applied
(SQLite: ``PRAGMA user_version``; PostgreSQL: the ``schema_migrations``
table). Each file runs in its own transaction. SQLite files: end every
statement with ``;`` at the end of a line (trigger bodies may span lines); a
first line ``-- ttr: foreign_keys=off`` runs the file with foreign keys off
(needed to rebuild a table) and checks them before it commits. PostgreSQL
files run as one script. Never edit a shipped file: add the next number
instead.
"""
