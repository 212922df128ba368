"""`python -m bot` runs the paperclub command line."""

from bot.cli.main import main

if __name__ == "__main__":
    main()
