"""A classroom's room: the teacher's lesson, the students' answers (``store.py``, no Streamlit)."""
