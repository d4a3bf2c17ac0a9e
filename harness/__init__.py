"""The test harness, shared by the tests, the benchmarks and the screenshot script.

A development tool, not part of the installed packages (pyproject installs gpt_core and
figures only); scripts run from the repository root put the root on sys.path to import it.

- ``harness.server``: start and stop a real ``streamlit run app.py`` on a free port, its log
  in ``test-artifacts/``.
- ``harness.browser``: find Debian's Chromium (or skip / fail a test without one), launch it
  through Playwright with the shared arguments, and wait for a Streamlit page to be ready.
- ``harness.charts``: read Plotly charts, both from the page (what Plotly drew) and from
  figure JSON (what the browser receives: typed arrays decoded, traces by name).
- ``harness.keyboard``: press Tab until the focus reaches a control, checking at every stop
  that the focus can be seen.
- ``harness.accessibility``: run axe-core's WCAG 2.1 A/AA rules in a page and report its
  violations by rule, node and reason.
- ``harness.under_load``: run the browser layer (or any pytest arguments) while one spinning
  process per core keeps the machine busy (``python -m harness.under_load``).

Importing it never needs pytest or Playwright; only the functions that use them do.
"""
