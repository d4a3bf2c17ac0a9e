"""The student link: PUBLIC_URL's lesson when set, else the teacher's browser's address; a
link that names this machine only is told apart from one a phone can open."""

from __future__ import annotations

from ui.room.links import lesson_base, only_this_machine, public_url


def test_public_url_is_the_apps_root_as_students_reach_it():
    assert public_url({"PUBLIC_URL": "https://class.example.org/"}) == "https://class.example.org"
    env = {"PUBLIC_URL": " http://10.0.0.5:8501/sa "}
    assert lesson_base("http://127.0.0.1:8501/lesson", env) == "http://10.0.0.5:8501/sa/lesson"
    for wrong in ("", "class.example.org", "ftp://x.org", "https://", "https://x.org/?a=1", "javascript:alert(1)"):
        assert public_url({"PUBLIC_URL": wrong}) is None, wrong


def test_without_it_the_browsers_own_address_is_the_link():
    assert lesson_base("http://192.168.1.20:8501/lesson", {}) == "http://192.168.1.20:8501/lesson"
    assert lesson_base("https://class.example.org/lesson?room=X#top", {}) == "https://class.example.org/lesson"


def test_a_link_to_this_machine_only_is_told_apart():
    for local in (
        "http://localhost:8501/lesson",
        "http://127.0.0.1:8501/lesson",
        "http://127.8.0.1/",
        "http://[::1]:8501/lesson",
        "http://0.0.0.0:8501/",
        "http://app.localhost/",
        "",
        None,
    ):
        assert only_this_machine(local), local
    for reachable in (
        "http://192.168.1.20:8501/lesson",
        "https://class.example.org/lesson",
        "http://[fe80::1]/",
        "http://10.0.0.5/",
    ):
        assert not only_this_machine(reachable), reachable
