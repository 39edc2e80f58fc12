"""``python -m bot [run|demo|health|verify|export|migrate|ratings|backup|forget|purge|privacy]``:
the bot (default), the AI demo, the container health check, and the operator tools (see
:mod:`bot.cli`; ``python -m bot --help`` lists them).

The first act of the process is to take SIGTERM and SIGINT (:mod:`bot.cli.stopping`, which
imports only ``signal``), so that a stop while the bot imports and starts ends it at once, also
as a container's PID 1 (which ignores a signal nobody handles)."""

if __name__ == "__main__":  # not when a spawned worker process imports this module
    from bot.cli import stopping

    stopping.install()

    import sys

    try:
        from bot.cli.main import main

        code = main()
    except stopping.Stopped as stop:  # while the command line was read or its modules imported
        code = stopping.exit_code(sys.argv[1:], stop.signum)
    sys.exit(code)
