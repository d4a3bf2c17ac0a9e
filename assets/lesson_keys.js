// Loaded by ui/lesson/keys.py as a Streamlit component (components v2: in the page, no frame,
// no user text). A presenter's clicker sends Page Down / Page Up (some send the arrow keys):
// Right arrow or Page Down asks the page for the next step, Left arrow or Page Up for the
// previous one. Keys typed into a control (a text box, a slider, a radio group, a select box)
// stay that control's own.
export default function ({ setTriggerValue }) {
  const NEXT = new Set(["ArrowRight", "PageDown"]);
  const PREVIOUS = new Set(["ArrowLeft", "PageUp"]);
  const owned = (target) =>
    target instanceof Element &&
    (target.closest("input, textarea, select, [contenteditable='true']") ||
      target.closest("[role='slider'], [role='radiogroup'], [role='radio'], [role='listbox'], [role='combobox'], [role='tab']"));
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || owned(event.target)) return;
    const go = NEXT.has(event.key) ? "next" : PREVIOUS.has(event.key) ? "previous" : null;
    if (go === null) return;
    event.preventDefault();
    setTriggerValue("go", { go, at: Date.now() });
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
