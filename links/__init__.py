"""The link rules of the pages, pure Python (no Streamlit): each parameter a page's link may
carry (its type, range and default), how a link is read back into values, with notes on what
was not used, and how values are written into a link (``rules``); the playground's own
parameters (``playground``). The app's pages, the notebook call and the offline page (its
link back to the app) all read and write links through these."""
