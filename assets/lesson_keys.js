// Loaded by ui/lesson/keys.py as a Streamlit component (components v2: in the page, no frame,
// no user text). A presenter's clicker sends Page Down / Page Up (some send the arrow keys):
// Right arrow or Page Down asks the page for the next step, Left arrow or Page Up for the
// previous one. Keys typed into a control (a text box, a slider, a radio group, a select box)
// stay that control's own, except in presentation mode, where the clicker always moves the
// step whatever was clicked last: Page Down / Page Up always, the arrows unless the focus is
// in a box one types into. The keys are read in the capture phase, before a control that
// keeps keys to itself (the teacher's segmented switch) can stop them.
export default function ({ data, setTriggerValue }) {
  const NEXT = new Set(["ArrowRight", "PageDown"]);
  const PREVIOUS = new Set(["ArrowLeft", "PageUp"]);
  const PAGE_KEYS = new Set(["PageDown", "PageUp"]);
  const TYPED = "input:not([type='radio']):not([type='checkbox']):not([type='range']), textarea, [contenteditable='true']";
  const presenting = Boolean(data && data.presenting);
  const owned = (target, key) => {
    if (!(target instanceof Element)) return false;
    if (presenting) return !PAGE_KEYS.has(key) && Boolean(target.closest(TYPED));
    return Boolean(
      target.closest("input, textarea, select, [contenteditable='true']") ||
        target.closest("[role='slider'], [role='radiogroup'], [role='radio'], [role='listbox'], [role='combobox'], [role='tab']"),
    );
  };
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const go = NEXT.has(event.key) ? "next" : PREVIOUS.has(event.key) ? "previous" : null;
    if (go === null || owned(event.target, event.key)) return;
    event.preventDefault();
    if (presenting) event.stopPropagation();
    setTriggerValue("go", { go, at: Date.now() });
  };
  document.addEventListener("keydown", onKey, true);
  return () => document.removeEventListener("keydown", onKey, true);
}
