// Loaded by ui/first_screen.py as a Streamlit component (no frame, no user text).
// A page's first run draws only its first screen; once the first chart on the page is
// drawn (or after data.fallback_ms, whatever happens), this asks for the next run, which
// draws the rest. Until then the browser spends its time on that chart alone. It also says
// how wide the page's main column is, so the charts can be sized for this screen.
export default function ({ setTriggerValue, data }) {
  let asked = false;
  let observer = null;
  let timer = null;
  const stop = () => {
    if (observer) observer.disconnect();
    clearTimeout(timer);
  };
  const ask = () => {
    if (asked) return;
    asked = true;
    stop();
    // After the frame that shows the chart has been painted.
    const main = document.querySelector("[data-testid='stMainBlockContainer']");
    let width = null;
    if (main) {
      const style = getComputedStyle(main);
      width = Math.round(main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight));
    }
    requestAnimationFrame(() => setTimeout(() => setTriggerValue("drawn", { width }), 0));
  };
  if (document.querySelector(data.selector)) {
    ask();
    return stop;
  }
  observer = new MutationObserver(() => {
    if (document.querySelector(data.selector)) ask();
  });
  observer.observe(document.body, { childList: true, subtree: true });
  timer = setTimeout(ask, data.fallback_ms);
  return stop;
}
