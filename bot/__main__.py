"""``python -m bot`` runs the bot; ``python -m bot simulate ...`` plays AI matches offline;
``python -m bot gallery`` draws every card; ``python -m bot web`` serves the web pages alone."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "simulate":
        from bot.simulate import main as simulate_main

        return simulate_main(args[1:])
    if args and args[0] == "gallery":
        from bot.gallery import main as gallery_main

        return gallery_main(args[1:])
    if args and args[0] == "web":
        from bot.run import run_web

        return run_web()
    if args and args[0] in ("-h", "--help"):
        print("usage: python -m bot            run the bot (DISCORD_TOKEN from .env)")
        print("       python -m bot simulate --game ID [--players N] [--games N] [--seed S] [--<option> V]")
        print(
            "       python -m bot gallery [--out DIR]   PNGs of every card, a sample hand and table per game"
        )
        print(
            "       python -m bot web         the servers' web pages alone (WEB_PORT, DATABASE_URL from .env)"
        )
        return 0
    from bot.run import run

    return run()


if __name__ == "__main__":
    raise SystemExit(main())
