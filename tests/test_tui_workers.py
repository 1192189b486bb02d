"""Background work starts without describing its arguments: a market of 10,000 evaluations took 1.8 s of the
UI thread to ``repr`` when the Training screen started a calculation (hostile-user pass, 10k market)."""

from __future__ import annotations

from textual.app import App

from quotetui.tui.workers import background


class Costly:
    described = 0

    def __repr__(self) -> str:
        Costly.described += 1
        return "costly"


class Host(App[None]):
    result: object = None

    @background(group="calc")
    def run_it(self, value: Costly) -> None:
        self.result = value


async def test_a_worker_is_named_by_its_group_and_its_arguments_are_never_described() -> None:
    app = Host()
    value = Costly()
    async with app.run_test() as pilot:
        worker = app.run_it(value)
        await worker.wait()
        await pilot.pause()
        assert app.result is value
        assert worker.group == "calc" and worker.description == "calc"
    assert Costly.described == 0
