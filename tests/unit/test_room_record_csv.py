"""The room's record as CSV and its per-step summary (classroom/record.py): the expected
text is written out here; formula-like cells stay text in a spreadsheet; Chinese survives
the file's bytes."""

from __future__ import annotations

import csv
import io

from classroom.model import AnswerRecord
from classroom.record import StepQuestion, StepSummary, answers_csv, csv_bytes, safe_cell, summary

SHAPE = StepQuestion("What shape is the weights matrix?", ["4 × 4", "6 × 6", "6 × 64"], lambda a: a == (1,))
HEADS = StepQuestion("Which heads are causal?", ["head 1", "head 2", "head 3"], lambda a: a == (0, 2))
QUESTIONS = {1: SHAPE, 3: HEADS}
ROWS = [
    AnswerRecord(1, 1, (1,), 4.0),
    AnswerRecord(1, 2, (2,), 12.3),
    AnswerRecord(1, 3, (1,), None),
    AnswerRecord(3, 1, (0, 2), 30.0),
    AnswerRecord(3, 3, (0,), 7.5),
]


def test_every_answer_is_a_line_with_its_question_labels_judgement_and_seconds():
    assert answers_csv(ROWS, QUESTIONS) == (
        "step,question,student,answer,right,seconds\r\n"
        "1,What shape is the weights matrix?,1,6 × 6,yes,4.0\r\n"
        "1,What shape is the weights matrix?,2,6 × 64,no,12.3\r\n"
        "1,What shape is the weights matrix?,3,6 × 6,yes,\r\n"
        "3,Which heads are causal?,1,head 1; head 3,yes,30.0\r\n"
        "3,Which heads are causal?,3,head 1,no,7.5\r\n"
    )


def test_a_step_whose_question_is_not_known_is_written_unjudged():
    text = answers_csv([AnswerRecord(2, 1, (0, 5), 1.0)], QUESTIONS)
    assert text.splitlines()[1] == "2,,1,0; 5,,1.0"
    assert summary([AnswerRecord(2, 1, (0,), 1.0)], QUESTIONS) == [StepSummary(2, 1, None)]
    assert StepSummary(2, 1, None).share_right is None


def test_cells_a_spreadsheet_would_run_as_formulas_stay_text():
    for start in ("=", "+", "-", "@"):
        cell = f'{start}HYPERLINK("http://x")'
        assert safe_cell(cell) == "'" + cell
    for harmless in ("6 × 6", "−∞ above the diagonal", "a=b", "", "'quoted"):
        assert safe_cell(harmless) == harmless
    assert safe_cell(12) == 12 and safe_cell(-3.5) == -3.5
    evil = StepQuestion("=cmd|' /C calc'!A0", ["+1", "-inf", "@SUM(A1)"], lambda a: a == (1,))
    text = answers_csv([AnswerRecord(1, 1, (0, 1, 2), 2.0)], {1: evil}, header=("=a", "b", "c", "d", "e", "f"))
    cells = list(csv.reader(io.StringIO(text)))
    assert cells[0][0] == "'=a"
    assert cells[1] == ["1", "'=cmd|' /C calc'!A0", "1", "'+1; -inf; @SUM(A1)", "no", "2.0"]
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in cells for cell in row)


def test_chinese_questions_labels_and_header_survive_the_file():
    question = StepQuestion("注意力权重矩阵是什么形状？", ["四乘四", "六乘六"], lambda a: a == (1,))
    header = ("步骤", "问题", "学生", "答案", "正确", "秒")
    text = answers_csv([AnswerRecord(1, 1, (1,), 3.0)], {1: question}, header, ("是", "否"))
    assert text == "步骤,问题,学生,答案,正确,秒\r\n1,注意力权重矩阵是什么形状？,1,六乘六,是,3.0\r\n"
    data = csv_bytes(text)
    assert data.startswith(b"\xef\xbb\xbf"), "the BOM that tells a spreadsheet the file is UTF-8"
    assert data[3:].decode("utf-8") == text


def test_the_summary_counts_each_steps_answers_and_right_ones():
    assert summary(ROWS, QUESTIONS) == [StepSummary(1, 3, 2), StepSummary(3, 2, 1)]
    assert [s.share_right for s in summary(ROWS, QUESTIONS)] == [2 / 3, 1 / 2]
    assert summary([], QUESTIONS) == []
    assert StepSummary(4, 0, 0).share_right == 0.0
