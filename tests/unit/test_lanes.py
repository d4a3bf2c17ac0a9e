"""The lane for heavy work (ui/shared/lanes.py): a few at once, first come first served,
each waiter told how many are ahead, and a waiter interrupted by a rerun leaves no hole."""

from __future__ import annotations

import threading
import time

import pytest

import ui.shared.lanes as lanes
from ui.shared.lanes import Lane, heavy_turn

PATIENCE_S = 10.0  # generous: a busy 2-core machine


def test_places_are_given_in_order_of_arrival_and_never_more_than_the_width():
    lane = Lane(2)
    tickets = [lane.ticket() for _ in range(4)]
    assert lane.enter(tickets[0], 0) and lane.enter(tickets[1], 0)
    assert not lane.enter(tickets[3], 0), "the last may not pass the third"
    assert not lane.enter(tickets[2], 0), "two places, both taken"
    assert lane.ahead(tickets[2]) == 2 and lane.ahead(tickets[3]) == 3
    lane.exit()
    assert not lane.enter(tickets[3], 0) and lane.enter(tickets[2], 0)
    assert lane.ahead(tickets[3]) == 2


def test_a_ticket_given_up_while_queued_lets_the_next_one_through():
    lane = Lane(1)
    first, second, third = lane.ticket(), lane.ticket(), lane.ticket()
    assert lane.enter(first, 0)
    lane.leave(second)  # its page was rerun while it waited
    assert lane.ahead(third) == 1
    lane.exit()
    assert lane.enter(third, 0)
    lane.leave(first)  # leaving after having entered changes nothing
    assert lane.queued == 0


def test_a_waiter_is_woken_as_soon_as_a_place_frees():
    lane = Lane(1)
    holder = lane.ticket()
    assert lane.enter(holder, 0)
    waiter = lane.ticket()
    entered = []
    thread = threading.Thread(target=lambda: entered.append(lane.enter(waiter, PATIENCE_S)))
    thread.start()
    time.sleep(0.1)
    lane.exit()
    thread.join(PATIENCE_S)
    assert entered == [True]


def test_heavy_turn_says_how_many_are_ahead_while_it_waits_and_frees_its_place(monkeypatch):
    said = []
    monkeypatch.setattr(lanes, "t", lambda key, lang, **values: said.append((key, lang, values)) or key)
    monkeypatch.setattr(lanes, "WAIT_POLL_S", 0.05)
    lane = Lane(1)
    holder = lane.ticket()
    assert lane.enter(holder, 0)
    done = threading.Event()

    def heavy():
        with heavy_turn("zh", lane):
            done.set()

    thread = threading.Thread(target=heavy)
    thread.start()
    time.sleep(0.3)
    assert not done.is_set(), "it waits while the only place is taken"
    assert said and said[0] == ("lane.ahead", "zh", {"n": 1})
    lane.exit()
    thread.join(PATIENCE_S)
    assert done.is_set() and lane.queued == 0
    assert lane.enter(lane.ticket(), 0), "the place was given back"


def test_heavy_turn_gives_its_place_back_when_the_work_fails():
    lane = Lane(1)
    with pytest.raises(ValueError), heavy_turn("en", lane):
        raise ValueError("no")
    assert lane.enter(lane.ticket(), 0) and lane.queued == 0


def test_a_first_screen_goes_before_the_rest_of_an_earlier_page():
    lane = Lane(1)
    holder = lane.ticket()
    assert lane.enter(holder, 0)
    rest = lane.ticket(priority=lanes.REST_OF_PAGE)
    first = lane.ticket(priority=lanes.FIRST_SCREEN)
    assert lane.ahead(first) == 1 and lane.ahead(rest) == 2
    lane.exit()
    assert not lane.enter(rest, 0) and lane.enter(first, 0)
    lane.exit()
    assert lane.enter(rest, 0)


def test_a_generation_is_as_long_as_asked_unless_the_model_is_too_large_for_that_much_work():
    from ui.train.views import GENERATION_WORK, generation_length

    assert generation_length(500, 100_000) == 500
    assert generation_length(500, GENERATION_WORK // 100) == 100
    assert generation_length(500, GENERATION_WORK * 10) == 1, "at least one character"
