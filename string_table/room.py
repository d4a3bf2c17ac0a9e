"""Strings: a class's room on the lesson page (the teacher's screen and the students')."""

STRINGS: dict[str, dict[str, str]] = {
    "room.code": {"en": "Room {code}", "zh": "课堂 {code}"},
    "room.join_title": {"en": "Join the class", "zh": "加入课堂"},
    "room.join_how": {
        "en": "Open the link or scan the code on a phone or laptop. No name is asked.",
        "zh": "在手机或电脑上打开链接，或扫描二维码。无需填写姓名。",
    },
    "room.join_code": {"en": "Code: **{code}**", "zh": "课堂码：**{code}**"},
    "room.link_local": {
        "en": "This link points at this computer only: phones cannot open it. Open the app by this computer's "
        "network address, or ask whoever hosts it to set PUBLIC_URL (see the teachers' guide).",
        "zh": "这个链接只指向这台电脑：手机无法打开。请用这台电脑的网络地址打开应用，或请托管者设置 PUBLIC_URL（见教师指南）。",
    },
    "room.qr_alt": {"en": "QR code of the student link {link}", "zh": "学生链接 {link} 的二维码"},
    "room.show": {"en": "Show", "zh": "显示"},
    "room.view.figure": {"en": "Figure", "zh": "图"},
    "room.view.answers": {"en": "Answers", "zh": "答案分布"},
    "room.view.join": {"en": "How to join", "zh": "加入方式"},
    "room.teacher_link": {
        "en": "Your teacher link (keep it to yourself: it moves the class; open it on another device to present from there):",
        "zh": "你的教师链接（请勿分享：它控制全班；在另一台设备上打开即可从那里讲课）：",
    },
    "room.end": {"en": "End the room", "zh": "结束课堂"},
    "room.end_confirm": {
        "en": "End the room for everyone? Its answers are deleted at once and cannot be brought back.",
        "zh": "要为所有人结束课堂吗？答案会立即删除，无法恢复。",
    },
    "room.end_yes": {"en": "End it", "zh": "结束"},
    "room.end_no": {"en": "Keep the room", "zh": "保留课堂"},
    "room.end_help": {
        "en": "Ends the room for everyone now: its answers are deleted and the students' pages say the room is over.",
        "zh": "立即为所有人结束课堂：答案将被删除，学生的页面会显示课堂已结束。",
    },
    "room.ended": {
        "en": "Room {code} has ended: its answers are deleted.",
        "zh": "课堂 {code} 已结束：答案已删除。",
    },
    "room.answered": {"en": "{n} answered", "zh": "已有 {n} 人作答"},
    "room.joined": {"en": "{n} in the room", "zh": "课堂里有 {n} 人"},
    "room.reveal": {"en": "Reveal", "zh": "揭晓答案"},
    "room.revealed": {"en": "Revealed on every screen.", "zh": "已在所有屏幕上揭晓。"},
    "room.no_answers": {"en": "No answers yet.", "zh": "还没有人作答。"},
    "room.teacher_prompt": {"en": "The class predicts:", "zh": "全班预测："},
    "room.following": {"en": "You follow the teacher's screen.", "zh": "你在跟随老师的屏幕。"},
    "room.own_pace": {"en": "Work at my own pace", "zh": "按自己的节奏学习"},
    "room.own_pace_help": {
        "en": "Off: the page moves with the teacher. On: move through the steps yourself; your answers still count.",
        "zh": "关闭：页面随老师移动。打开：自己浏览各步骤；你的答案仍会计入。",
    },
    "room.back_to_teacher": {"en": "Go to the teacher's step ({n})", "zh": "回到老师所在的步骤（{n}）"},
    "room.your_answer_in": {
        "en": "Your answer is in. You can change it until the teacher reveals the answer.",
        "zh": "你的答案已提交。老师揭晓答案之前都可以修改。",
    },
    "room.answer_now": {"en": "Choose your answer: it is sent at once.", "zh": "选择你的答案：选中即提交。"},
    "room.wait_reveal": {"en": "The teacher reveals the answer to everyone.", "zh": "老师会向所有人揭晓答案。"},
    "room.you_were_right": {"en": "You answered {answer}: right.", "zh": "你的答案是 {answer}：正确。"},
    "room.you_were_wrong": {"en": "Not quite. You answered {answer}.", "zh": "不完全对。你的答案是 {answer}。"},
    "room.you_did_not_answer": {"en": "You did not answer this step.", "zh": "这一步你没有作答。"},
    "room.lesson_alone": {"en": "Open the lesson on your own", "zh": "自己打开课程"},
    "room.not_teacher_note": {
        "en": "This link's teacher key is not this room's: you see the room as a student.",
        "zh": "此链接中的教师密钥与本课堂不符：你以学生身份进入课堂。",
    },
    "room.error.no_room": {
        "en": "There is no room with the code {code}: it may be mistyped or over (a room lasts {hours} hours).",
        "zh": "没有课堂码为 {code} 的课堂：可能输入有误，或课堂已结束（课堂持续 {hours} 小时）。",
    },
    "room.error.bad_code": {
        "en": "“{code}” is not a room code: a code is 8 letters and digits, such as ACEF-HJKM.",
        "zh": "“{code}” 不是课堂码：课堂码由 8 个字母和数字组成，例如 ACEF-HJKM。",
    },
    "room.error.not_teacher": {"en": "Only the teacher's link can do that.", "zh": "只有教师链接可以这样做。"},
    "room.error.full": {
        "en": "The room is full ({n} students): follow the projector, or open the lesson on your own.",
        "zh": "课堂已满（{n} 名学生）：请看投影，或自己打开课程。",
    },
    "room.error.too_many_changes": {
        "en": "You changed this answer too often: your last answer is the one counted.",
        "zh": "这个答案修改次数过多：计入的是你上一次的答案。",
    },
    "room.error.revealed": {
        "en": "The answer is revealed: answers to this step are closed.",
        "zh": "答案已揭晓：这一步不能再作答。",
    },
    "room.error.bad_answer": {"en": "That answer could not be sent.", "zh": "这个答案无法提交。"},
    "room.error.bad_step": {"en": "That step is not part of the lesson.", "zh": "这一步不属于本课程。"},
    "room.error.store": {
        "en": "The room cannot be reached just now; the lesson goes on here. Try again in a moment.",
        "zh": "暂时无法连接课堂；课程仍可在此继续。请稍后再试。",
    },
    "room.error.too_many_rooms": {
        "en": "Too many rooms were made from this address in the last hour: use one of them, or try again later.",
        "zh": "过去一小时内从此地址创建的课堂过多：请使用已有的课堂，或稍后再试。",
    },
    "room.error.too_many_joins": {
        "en": "Too many students joined from this address in the last minute: try again in a minute.",
        "zh": "过去一分钟内从此地址加入的学生过多：请一分钟后再试。",
    },
    "room.error.too_many_guesses": {
        "en": "Too many codes that name no room were tried from this address: wait a minute, then check the code.",
        "zh": "从此地址尝试了过多无效的课堂码：请等一分钟，再核对课堂码。",
    },
    "room.error.lost": {
        "en": "There is no room with the code {code}: the server lost its rooms (their file was removed). "
        "The teacher can make a new room.",
        "zh": "没有课堂码为 {code} 的课堂：服务器丢失了所有课堂（其文件被删除）。教师可以新建一个课堂。",
    },
    "rmfig.title": {"en": "The class's answers", "zh": "全班的答案"},
    "rmfig.count_axis": {"en": "students", "zh": "学生人数"},
    "rmfig.right": {"en": "right", "zh": "正确"},
}
