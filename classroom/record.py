"""The teacher's record of a room after class, as text: every answer (``model.AnswerRecord``)
with its step's question, the option(s) picked, whether it is right, and the seconds after
the step opened, as CSV; and each step's summary (answered, right, share right).

Pure: the questions come in as ``StepQuestion`` (the question's text, its options' labels
and its own judgement of an answer), made by the page from the lesson's questions. Students
are numbers (1, 2, 3… in the order they joined): the record holds no name and no id.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .model import AnswerRecord

# What a spreadsheet reads as the start of a formula (and the control characters it may
# skip before one): such a cell is written after a ' so that it stays text (OWASP's advice).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
PICKS_JOIN = "; "  # between the options of one answer that picks several
COLUMNS = ("step", "question", "student", "answer", "right", "seconds")


@dataclass(frozen=True)
class StepQuestion:
    """A step's question as the record needs it: its text, its options' labels (an answer's
    indices index them) and whether an answer (its option indices) is right."""

    text: str
    labels: Sequence[str]
    is_right: Callable[[tuple[int, ...]], bool]


@dataclass(frozen=True)
class StepSummary:
    """A step's answers: how many, and how many right (None: the step's question is not known)."""

    step: int
    answered: int
    right: int | None

    @property
    def share_right(self) -> float | None:
        return None if self.right is None else self.right / self.answered if self.answered else 0.0


def safe_cell(value: object) -> object:
    """A cell a spreadsheet shows as written: text that would start a formula gets a '
    before it; numbers and other text pass."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def answer_text(question: StepQuestion | None, answer: tuple[int, ...]) -> str:
    """The picked options' labels (an index the question has no label for: the index)."""
    labels = question.labels if question is not None else ()
    return PICKS_JOIN.join(labels[i] if 0 <= i < len(labels) else str(i) for i in answer)


def is_right(question: StepQuestion | None, answer: tuple[int, ...]) -> bool | None:
    """The question's judgement of the answer; None when the question is not known."""
    return None if question is None else bool(question.is_right(answer))


def answers_csv(
    rows: Sequence[AnswerRecord],
    questions: Mapping[int, StepQuestion],
    header: Sequence[str] = COLUMNS,
    yes_no: tuple[str, str] = ("yes", "no"),
) -> str:
    """Every answer as one CSV line (``header``: the six columns' names in the page's
    language; ``yes_no``: the right column's words), in the rows' order. A step's seconds
    are empty where the room holds no time for it, its right cells where its question is not
    known (``questions`` has no entry for it). CRLF line ends (RFC 4180)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe_cell(name) for name in header])
    for row in rows:
        question = questions.get(row.step)
        writer.writerow(
            [
                row.step,
                safe_cell(question.text if question is not None else ""),
                row.student,
                safe_cell(answer_text(question, row.answer)),
                _judged(is_right(question, row.answer), yes_no),
                "" if row.seconds is None else f"{row.seconds:.1f}",
            ]
        )
    return out.getvalue()


def _judged(right: bool | None, yes_no: tuple[str, str]) -> object:
    return "" if right is None else safe_cell(yes_no[0] if right else yes_no[1])


def csv_bytes(text: str) -> bytes:
    """The CSV as a file: UTF-8 with a byte-order mark, which spreadsheets (Excel) need to
    read it as UTF-8 (Chinese text included)."""
    return text.encode("utf-8-sig")


def summary(rows: Sequence[AnswerRecord], questions: Mapping[int, StepQuestion]) -> list[StepSummary]:
    """Each step that has answers, in order: how many answered and how many were right
    (None where the step's question is not known)."""
    answered: dict[int, int] = {}
    right: dict[int, int] = {}
    for row in rows:
        answered[row.step] = answered.get(row.step, 0) + 1
        right[row.step] = right.get(row.step, 0) + bool(is_right(questions.get(row.step), row.answer))
    return [StepSummary(s, answered[s], right[s] if s in questions else None) for s in sorted(answered)]
