"""The ``bullscows`` command's entry point (also ``python -m bullscows``).

Nothing but ``sys`` is imported before ``main`` begins (the package itself loads its names on
first use), so that Ctrl-C at any moment, while the command's modules are still loading
included, ends the command with one line and status 130, never a traceback.
"""

import sys


def main() -> None:
    """Run the ``bullscows`` command; its modules are imported here, under the same guard.
    However the command ends, a further Ctrl-C while the process ends (its pools and threads
    shut down, exit handlers run) is ignored, so it prints no traceback either."""
    try:
        from bullscows.cli import main as command

        command()
    except KeyboardInterrupt:
        from bullscows.errors import interrupted

        sys.exit(interrupted())
    finally:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    main()
