"""The operator's command line, ``python -m bot [command] [options]``.

:mod:`bot.cli.main` builds one :mod:`argparse` parser with a sub-parser per command and
answers every failure the same way (one line on stderr, ``ttrbot <command>: <what went
wrong>``, an exit code from the table in ``docs/operators/commands.md``). Each family of
commands is one module that adds its sub-parsers and does its arguments and printing; the work
itself stays where it belongs (:mod:`bot.process.run`, :mod:`bot.cli.demo_game`, :mod:`bot.host.backup`,
:mod:`bot.host.services.ops`, :mod:`bot.host.services.privacy_ops`):

- :mod:`bot.cli.run`: ``run`` (the default) and ``health``
- :mod:`bot.cli.demo`: ``demo``
- :mod:`bot.cli.backup`: ``backup``
- :mod:`bot.cli.games`: ``verify``, ``export``, ``migrate``
- :mod:`bot.cli.ratings`: ``ratings``
- :mod:`bot.cli.privacy`: ``forget``, ``purge``, ``privacy``

:mod:`bot.cli.stopping` is the first thing ``python -m bot`` does: it takes SIGTERM and SIGINT
before anything heavy is imported. This package imports nothing at its top, so that module
loads in a few milliseconds.
"""
