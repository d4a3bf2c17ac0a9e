// Loaded by ui/page_state/history.py as a Streamlit component (components v2: in the page, no
// frame, no user text). Streamlit pushes a browser history entry each time a page writes its
// link (st.query_params), so Back stepped through a page's own link writes, which the page does
// not replay. Here a push that keeps the page (the same path) replaces the current entry
// instead: one entry per page visit, whose link is the page as the student left it. A page
// change (another path) still pushes, so Back returns to the page before, as it was left.
export default function () {
  const history = window.history;
  if (history.__oneEntryPerPage) return;
  const push = history.pushState.bind(history);
  history.pushState = function (state, title, url) {
    try {
      if (url !== undefined && url !== null && new URL(url, window.location.href).pathname === window.location.pathname) {
        return history.replaceState(state, title, url);
      }
    } catch (error) {
      // an address URL cannot read: the browser's own push
    }
    return push(state, title, url);
  };
  history.__oneEntryPerPage = true;
}
