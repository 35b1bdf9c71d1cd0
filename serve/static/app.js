// conc playground: the page calls the API of docs/spec.md §4, conc serve and shows its
// answers; it decides nothing itself.
"use strict";

const $ = (id) => document.getElementById(id);
let examples = [];
let families = [];
// edited: the program is no longer the chosen example's, so its errors
// cite input.conc rather than the example's name.
let edited = false;

function checkQuery() {
  const q = new URLSearchParams();
  const ex = examples[$("example").selectedIndex];
  q.set("name", ex && !edited ? ex.name : "input.conc");
  q.set("engine", $("engine").value);
  if ($("lock-edges").checked) q.set("lock-edges", "true");
  if ($("ignore-sync").checked) q.set("ignore-sync", "true");
  if ($("timeout").value.trim()) q.set("timeout", $("timeout").value.trim());
  return q.toString();
}

async function post(path) {
  return fetch(path + "?" + checkQuery(), { method: "POST", body: $("source").value });
}

function showErrors(list) {
  const ul = $("errors");
  ul.replaceChildren();
  markLine(0);
  for (const e of list || []) {
    const li = document.createElement("li");
    li.textContent = (e.pos ? e.pos + ": " : "") + e.message;
    if (e.line) {
      li.dataset.line = e.line;
      li.dataset.col = e.col;
      li.title = "show in the program";
      li.addEventListener("click", () => showPosition(e.line, e.col));
    }
    ul.append(li);
  }
  const first = (list || []).find((e) => e.line);
  if (first) markLine(first.line);
}

// markLine draws a band behind line (1-based) of the program, the first
// error's, and scrolls it into view; 0 removes it.
function markLine(line) {
  const src = $("source"), band = $("error-line");
  band.hidden = !line;
  if (!line) {
    delete band.dataset.line;
    return;
  }
  const st = getComputedStyle(src);
  const lh = parseFloat(st.lineHeight) || 1.4 * parseFloat(st.fontSize);
  const top = parseFloat(st.paddingTop) + (line - 1) * lh;
  if (top < src.scrollTop || top + lh > src.scrollTop + src.clientHeight) src.scrollTop = top - lh;
  band.style.top = (src.offsetTop + top - src.scrollTop) + "px";
  band.style.left = src.offsetLeft + "px";
  band.style.width = src.clientWidth + "px";
  band.style.height = lh + "px";
  band.dataset.line = line;
}

// showPosition puts the cursor at line:col (1-based, in characters) of
// the program.
function showPosition(line, col) {
  const src = $("source");
  const lines = src.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += col - 1;
  src.focus();
  src.setSelectionRange(at, at + 1);
}

function setVerdict(v, summary) {
  $("verdict").textContent = v;
  $("verdict").dataset.verdict = v;
  $("summary").textContent = summary || "";
}

async function check() {
  setVerdict("checking…");
  showErrors([]);
  $("why").textContent = "";
  $("profiles").textContent = "";
  $("json").textContent = "";
  $("timeline").srcdoc = "";
  const res = await post("/api/check");
  const body = await res.json();
  $("json").textContent = JSON.stringify(body, null, 2);
  if (!res.ok) {
    setVerdict("error");
    showErrors(body.errors);
    $("timeline").srcdoc = "<p style='font-family:sans-serif'>No witness: the program was not checked.</p>";
    return;
  }
  let summary = "engine " + body.engine;
  if (body.reason) summary += ": " + body.reason;
  setVerdict(body.verdict, "(" + summary + ")");
  explain();
  if (body.verdict === "violation") {
    const t = await post("/api/timeline");
    $("timeline").srcdoc = await t.text();
  } else {
    $("timeline").srcdoc = "<p style='font-family:sans-serif'>No witness: the verdict is " + body.verdict + ".</p>";
  }
}

async function explain() {
  const res = await post("/api/explain");
  const body = await res.json();
  if (!res.ok) {
    showErrors(body.errors);
    return;
  }
  $("why").textContent = body.why;
  $("profiles").textContent = body.profiles;
}

// fitTimeline makes the witness frame as tall as its page, so that a
// learner sees every lane without scrolling inside a frame (at a fixed
// 22em the second thread of Figure 1 was below the fold). The frame's
// srcdoc page shares this origin, so its height can be read.
function fitTimeline() {
  const d = $("timeline").contentDocument;
  if (d && d.documentElement) {
    $("timeline").style.height = (d.documentElement.scrollHeight + 4) + "px";
  }
}

function loadExample() {
  const ex = examples[$("example").selectedIndex];
  if (ex) $("source").value = ex.source;
  edited = false;
}

function showFamily() {
  const f = families[$("family").selectedIndex];
  if (!f) return;
  $("sizes").value = f.sizes.join(",");
  $("threads").value = f.min_k ? String(f.default_k) : "";
  $("threads").disabled = !f.min_k;
  $("axes").textContent = "n = " + f.n + "; k = " + f.k;
}

async function runLab() {
  const q = new URLSearchParams();
  q.set("family", $("family").value);
  const engs = [...document.querySelectorAll("#engines input:checked")].map((i) => i.value);
  q.set("engines", engs.join(","));
  q.set("sizes", $("sizes").value);
  if (!$("threads").disabled && $("threads").value.trim()) q.set("threads", $("threads").value);
  q.set("metric", $("metric").value);
  $("lab-status").textContent = "running…";
  const res = await fetch("/api/lab?" + q.toString());
  const body = await res.json();
  if (!res.ok) {
    $("lab-status").textContent = body.errors.map((e) => e.message).join("; ");
    return;
  }
  $("lab-status").textContent = "";
  $("plot").innerHTML = body.svg; // the server's own SVG (package bench)
  $("fits").textContent = body.fits || "(fewer than three measured sizes: no fit)";
  $("table").textContent = body.table;
}

function showTab(name) {
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  $("play").hidden = name !== "play";
  $("lab").hidden = name !== "lab";
}

async function init() {
  for (const t of document.querySelectorAll(".tab")) t.addEventListener("click", () => showTab(t.dataset.tab));
  examples = await (await fetch("/api/examples")).json();
  for (const ex of examples) $("example").append(new Option(ex.name));
  $("example").addEventListener("change", loadExample);
  $("source").addEventListener("input", () => { edited = true; });
  $("source").addEventListener("scroll", () => markLine(+$("error-line").dataset.line || 0));
  $("check").addEventListener("click", check);
  $("timeline").addEventListener("load", fitTimeline);
  loadExample();
  check(); // a verdict from the start, not a blank until Check
  families = await (await fetch("/api/lab/families")).json();
  for (const f of families) $("family").append(new Option(f.name));
  $("family").value = "chain";
  $("family").addEventListener("change", showFamily);
  $("run").addEventListener("click", runLab);
  showFamily();
  document.body.dataset.ready = "true";
}

init();
