"""Europe's train stations in Discord, through the fake Discord: /ttr station with its city
autocomplete (each city with the station's cost), the Station button of the turn message and of
the turn panel, the payment step (one button per way to pay, as a claim's), the turn story,
the final score table naming each station's route and ticket, and /ttr rules listing the maps
(it took the place of /ttr maps).
"""

from __future__ import annotations

from pathlib import Path

from engine.scoring import final_scores
from engine.testing import build_state
from maps import load_ruleset
from sentences import texts as fmt
from words import words_for

from ._harness import TIMEOUT, running_table, started_game


async def test_a_station_built_with_the_command_then_with_the_button(tmp_path: Path) -> None:
    async with running_table(tmp_path) as t:
        g = await started_game(t, "europe")
        mover = await t.active(g)
        choices = await (
            await t.fake.autocomplete(
                mover.user, "ttr", "station", {"city": "mad"}, focused="city", channel=mover.channel
            )
        )
        assert [c["value"] for c in choices] == ["madrid"]
        assert choices[0]["name"] == "Madrid (1 card)"
        before = await t.version(g)
        reply = await mover.slash("station", {"city": "madrid"})
        assert reply.ephemeral and "Build a train station in **Madrid**" in reply.content
        labels = [b.get("label") for b in reply.buttons]
        assert "Other city" in labels and "Cancel" in labels, reply.summary()
        assert await t.version(g) == before  # choosing nothing plays nothing
        done = await mover.click(reply, reply.buttons[0]["custom_id"], private=True)
        assert "You built a train station in Madrid." in done.content, done.summary()
        assert await t.version(g) == before + 1
        story = t.turn_messages(g)[-1].content
        assert "built a train station in Madrid with 1×" in story and "(2 left)" in story
        # the other player: the Station button of the turn message, a city on the picker
        other = await t.active(g)
        assert other is not mover
        turn = t.turn_messages(g)[-1]
        button = next(c for c in turn.custom_ids if c.endswith(":station"))
        picker = await other.click(turn, button)
        assert picker.ephemeral and len(picker.selects) == 1, picker.summary()
        options = picker.selects[0]["options"]
        assert "Madrid (1 card)" not in [o["label"] for o in options]  # one station per city
        assert "Page 1 of 2" in [b.get("label") for b in picker.buttons]  # 46 cities, 25 a page
        handle = await t.fake.select(
            other.user, picker, picker.selects[0]["custom_id"], [options[0]["value"]], private=True
        )
        pay = await handle.message(timeout=TIMEOUT)
        built = await other.click(pay, pay.buttons[0]["custom_id"], private=True)
        assert "You built a train station in" in built.content, built.summary()
        assert await t.version(g) == before + 2
        table = await t.service.table(g, 0)
        assert table.public is not None and len(table.public.stations) == 2
        assert not t.fake.take_violations()


async def test_a_city_taken_or_a_wrong_colour_is_refused_privately(tmp_path: Path) -> None:
    async with running_table(tmp_path) as t:
        g = await started_game(t, "europe")
        mover = await t.active(g)
        reply = await mover.slash("station", {"city": "atlantis"})
        assert reply.ephemeral and "You cannot build a train station in atlantis" in reply.content
        table = await t.service.table(g, mover.user.id)
        assert table.mine is not None
        missing = next(c for c in ("red", "blue", "green", "black") if not table.mine.hand.get(c))
        refused = await mover.slash("station", {"city": "wien", "color": missing})
        assert refused.ephemeral and "Your cards cannot pay for it that way" in refused.content


async def test_the_turn_panel_offers_the_station_and_rules_lists_the_maps(tmp_path: Path) -> None:
    async with running_table(tmp_path) as t:
        reply = await t.players["alice"].slash("rules")
        assert "**Europe** (`europe`): 2-5 players" in reply.content, reply.summary()
        g = await started_game(t, "europe")
        mover = await t.active(g)
        turn = t.turn_messages(g)[-1]
        draw = next(c for c in turn.custom_ids if c.endswith(":draw"))
        panel = await mover.click(turn, draw)
        assert panel.ephemeral and "or build a train station" in panel.content, panel.summary()
        station = next(b for b in panel.buttons if b["custom_id"].endswith(":station"))
        assert station.get("label") == "Train station" and not station.get("disabled")
        picker = await mover.click(panel, station["custom_id"])
        assert picker.selects and "Your next train station costs 1 card" in picker.content


def test_the_final_score_table_names_each_stations_route_and_ticket() -> None:
    rules = load_ruleset("europe")
    state = build_state(
        rules,
        seats=2,
        owned={
            0: ["frankfurt__munchen__1", "munchen__wien__1"],
            1: ["frankfurt__paris__1"],
        },
        tickets={0: ["paris__wien"]},
        stations={"frankfurt": 0, "roma": 0},
    )
    w = words_for("en", rules.meta)
    text = fmt.score_table(final_scores(rules, state), ["Ann", "Ben"], w, rules=rules)
    assert (
        "Train station Frankfurt: uses Frankfurt – Paris (3, orange) for Paris – Wien (8)" in text
    )
    assert "Train station Roma: no route used" in text
    assert "unbuilt train stations 4" in text
    de = fmt.score_table(
        final_scores(rules, state), ["Ann", "Ben"], words_for("de", rules.meta), rules=rules
    )
    assert "Bahnhof Frankfurt: nutzt Frankfurt – Paris" in de


async def test_a_named_station_with_one_fitting_payment_is_built_at_once(tmp_path: Path) -> None:
    """As /ttr claim with a route and a colour: one way to pay left, no payment step."""
    async with running_table(tmp_path) as t:
        g = await started_game(t, "europe")
        mover = await t.active(g)
        table = await t.service.table(g, mover.user.id)
        assert table.mine is not None
        color = next(c for c, n in table.mine.hand.items() if n and c != "locomotive")
        before = await t.version(g)
        reply = await mover.slash("station", {"city": "wien", "color": color})
        assert "You built a train station in Wien." in reply.content, reply.summary()
        assert not reply.buttons or "Other city" not in [b.get("label") for b in reply.buttons]
        assert await t.version(g) == before + 1
        assert not t.fake.take_violations()
