"""Regenerate the README's screenshots (SVG, Textual's own screenshot support) from the demo market.

python docs/screenshots.py
"""

from __future__ import annotations

import asyncio
import tempfile
from datetime import date
from pathlib import Path

from quotetui.services.database import open_database
from quotetui.services.demo import load_demo
from quotetui.tui.app import QuotetuiApp

HERE = Path(__file__).resolve().parent
SHOTS = {  # name: keys pressed from the dashboard
    "dashboard": [],
    "offers": ["o", "space", "down", "space", "down", "down", "space"],
    "compare": ["o", "space", "down", "space", "down", "down", "space", "c"],
    "offer-pricing": ["o", "down", "down", "enter", "2"],
    "negotiation": ["o", "down", "down", "enter", "3"],
    "rent-vs-buy": ["b"],
    "training": ["t"],
}


async def shoot(db: Path, name: str, keys: list[str]) -> None:
    app = QuotetuiApp(str(db), today=date(2026, 11, 30))
    async with app.run_test(size=(120, 36)) as pilot:
        for key in [None, *keys]:
            if key:
                await pilot.press(key)
            for _ in range(3):
                await app.workers.wait_for_complete()
                await pilot.pause()
        app.save_screenshot(str(HERE / f"{name}.svg"))


def main() -> None:
    db = Path(tempfile.gettempdir()) / "quotetui-demo" / "demo.db"  # a short, stable path for the header
    db.parent.mkdir(exist_ok=True)
    for old in db.parent.glob("demo.db*"):
        old.unlink()
    opened = open_database(str(db))
    load_demo(opened.db)
    opened.db.dispose()
    for name, keys in SHOTS.items():
        asyncio.run(shoot(db, name, keys))
        print(HERE / f"{name}.svg")


if __name__ == "__main__":
    main()
