"""The rerun benchmark's arithmetic: each step's median over the reruns, what the steps
leave of the round trip, and its table (a row per step, a column per tree and kind)."""

from __future__ import annotations

from benchmarks.rerun_work import KINDS, REST, ROUND_TRIP, STEPS, step_medians, table


def test_each_step_is_its_median_and_the_rest_is_what_the_steps_leave_of_the_round_trip():
    reruns = [
        {"figures": 4.0, "serialization": 2.0, ROUND_TRIP: 40.0},  # rest 34
        {"figures": 6.0, "serialization": 1.0, "trace": 3.0, ROUND_TRIP: 30.0},  # rest 20
        {"serialization": 3.0, ROUND_TRIP: 50.0},  # rest 47
    ]
    medians = step_medians(reruns)
    assert medians == {
        "trace": 0.0,  # absent from two reruns: 0 there
        "figures": 4.0,
        "description": 0.0,
        "serialization": 2.0,
        REST: 34.0,
        ROUND_TRIP: 40.0,
    }


def test_the_table_has_a_row_per_step_and_a_column_per_tree_and_kind():
    one = {step: 1.0 for step in (*STEPS, REST, ROUND_TRIP)}
    results = {"before (abc)": {kind: one for kind in KINDS}, "after": {kind: one for kind in KINDS}}
    lines = table(results).splitlines()
    assert len(lines) == 2 + len(STEPS) + 2
    assert lines[0].count("|") == 2 + 2 * len(KINDS)
    assert "nothing changed, before (abc)" in lines[0] and "query row, after" in lines[0]
    assert [line.split("|")[1].strip() for line in lines[2:]] == [*STEPS, REST, ROUND_TRIP]
