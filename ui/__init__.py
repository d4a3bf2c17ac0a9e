"""The Streamlit layer: strings, page shell and URL state. Pages stay thin."""
