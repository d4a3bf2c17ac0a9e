// Loaded by ui/room/student_id.py as a Streamlit component (components v2: in the page, no
// frame, no user text). A student is one browser: the page gives this browser a student id
// for the rooms (random, made by the app) in a cookie of this site, so a reload, or the link
// scanned again, is the same student, and the link opened in another browser is another.
export default function ({ data }) {
  if (!data || typeof data.id !== "string" || !/^[A-Za-z0-9_-]{12}$/.test(data.id)) return;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${data.name}=${data.id}; Path=/; Max-Age=${data.maxAge}; SameSite=Lax${secure}`;
}
