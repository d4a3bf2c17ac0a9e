"""The link rules of the pages, pure Python (no Streamlit): each parameter a page's link may
carry (its type, range and default), how a link is read back into values, with notes on what
was not used, and how values are written into a link (``rules``); then each page's own
parameters: ``playground``, ``explorer``, ``lesson`` (with the room's parameters on its
link) and ``train``. The app's pages, the notebook call and the offline page (its link back
to the app) all read and write links through these."""
