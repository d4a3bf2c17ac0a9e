"""The views of attention that the playground and the explorer share, by concept: the view
model over a source and its trace (``model.py``), the token view, the combined view, the
source's notes, and the table a page's lazy tabs draw from (``tabs.py``). A page package
keeps its controls and how it composes these; these never import a page package."""
