"""A class's room on the lesson page: this session's seat read from the link, the teacher's
bar and projected answers, the students' bar; the room itself and its stores are
``classroom/`` (no Streamlit)."""
