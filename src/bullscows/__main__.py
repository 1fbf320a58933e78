"""``python -m bullscows``."""

from bullscows.cli import main

if __name__ == "__main__":
    main()
