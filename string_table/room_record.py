"""Strings: the teacher's record of a room's answers (the CSV download and the summary)."""

STRINGS: dict[str, dict[str, str]] = {
    "room.record.title": {"en": "The class's answers", "zh": "全班的答案"},
    "room.record.download": {"en": "Download the answers (CSV)", "zh": "下载答案（CSV）"},
    "room.record.download_help": {
        "en": "Every answer: step, question, student number (in the order students joined; no names), "
        "answer, right or wrong, seconds after the step opened.",
        "zh": "每个答案：步骤、问题、学生编号（按加入顺序；不含姓名）、答案、对错、该步骤开始后的秒数。",
    },
    "room.record.none": {"en": "Nothing recorded yet.", "zh": "还没有记录。"},
    "room.record.download_failed.store": {
        "en": "The answers could not be downloaded: the room cannot be reached just now. Try again in a moment.",
        "zh": "无法下载答案：暂时无法连接课堂。请稍后再试。",
    },
    "room.record.download_failed.no_room": {
        "en": "The answers could not be downloaded: the room has ended or expired, and its answers are gone.",
        "zh": "无法下载答案：课堂已结束或已过期，答案已被删除。",
    },
    "room.record.download_failed.not_teacher": {
        "en": "The answers could not be downloaded: only the teacher's link can download them.",
        "zh": "无法下载答案：只有教师链接可以下载。",
    },
    "room.record.summary": {"en": "Share right, by step", "zh": "各步骤答对的比例"},
    "room.record.line": {
        "en": "{right} of {answered} right · **{share}**",
        "zh": "{answered} 人中 {right} 人答对 · **{share}**",
    },
    "room.record.unjudged": {"en": "{answered} answered (not judged)", "zh": "{answered} 人作答（未判定）"},
    # the CSV's header and its right column's words
    "room.record.col.step": {"en": "step", "zh": "步骤"},
    "room.record.col.question": {"en": "question", "zh": "问题"},
    "room.record.col.student": {"en": "student", "zh": "学生"},
    "room.record.col.answer": {"en": "answer", "zh": "答案"},
    "room.record.col.right": {"en": "right", "zh": "正确"},
    "room.record.col.seconds": {"en": "seconds", "zh": "秒"},
    "room.record.yes": {"en": "yes", "zh": "是"},
    "room.record.no": {"en": "no", "zh": "否"},
}
