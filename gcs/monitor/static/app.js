// The Game Card Monitor page: one WebSocket, pushed states, four tabs, time travel, play mode.
"use strict";

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => (
  { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const token = new URLSearchParams(location.search).get("token") || "";

const ui = {
  ws: null, mode: "watch", phases: [], encounters: [], generation: -1,
  live: null,        // the latest live state message
  shown: null,       // the state drawn now (live, or a past one)
  past: null,        // seq of the event looked at, or null when live
  events: [], types: new Set(),
  selected: null,    // hand index waiting for a target
  picked: new Set(), // Choice candidates picked
  prevLoc: new Map(), // card uid -> pile, as last drawn (moved cards flash)
  choiceKey: "",
};

const PILES = [["hand", "Hand"], ["draw", "Draw"], ["discard", "Discard"], ["exhaust", "Exhaust"],
  ["played", "Played this turn"], ["drawn", "Drawn this turn"]];

// ---------------------------------------------------------------- connection
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws?token=${encodeURIComponent(token)}`);
  ui.ws = ws;
  ws.onopen = () => { $("conn").textContent = "connected"; $("conn").className = "conn on"; };
  ws.onclose = () => {
    $("conn").textContent = "disconnected"; $("conn").className = "conn off";
    setTimeout(connect, 1000);
  };
  ws.onmessage = (m) => receive(JSON.parse(m.data));
}

function send(msg) {
  if (ui.ws && ui.ws.readyState === WebSocket.OPEN) ui.ws.send(JSON.stringify(msg));
}

function act(action) { ui.selected = null; send({ type: "act", action }); }

function receive(msg) {
  switch (msg.type) {
    case "hello":
      ui.mode = msg.mode; ui.phases = msg.phases; ui.encounters = msg.encounters;
      if (msg.generation !== ui.generation) {
        ui.generation = msg.generation; ui.events = []; ui.types = new Set(); ui.past = null;
      }
      $("mode").textContent = msg.mode === "play" ? "PLAY" : "WATCH";
      $("mode").className = "badge " + msg.mode;
      document.body.dataset.mode = msg.mode;
      fillEncounters();
      break;
    case "events":
      if (msg.generation !== ui.generation) return;
      for (const e of msg.events) { ui.events.push(e); ui.types.add(e.type); }
      renderEvents();
      break;
    case "state":
      if (msg.generation !== ui.generation) return;
      if (msg.live) {
        ui.live = msg;
        document.body.dataset.version = msg.version;
        if (ui.past === null) draw(msg.state);
      } else if (ui.past === msg.at) {
        draw(msg.state);
        document.body.dataset.at = msg.at;
      }
      break;
    case "refused": case "error":
      toast(msg.error); break;
    case "ok":
      break;
  }
}

let toastTimer = null;
function toast(text) {
  const t = $("toast");
  t.textContent = text; t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
}

// ---------------------------------------------------------------- time travel
function travel(seq) {
  ui.past = seq; ui.selected = null;
  send({ type: "travel", seq });
  renderEvents();
  const e = ui.events.find((x) => x.seq === seq);
  const wave = e ? ui.events.filter((x) => x.wave === e.wave) : [];
  const span = wave.length > 1 ? `, events #${wave[0].seq}–#${wave[wave.length - 1].seq}` : "";
  $("travel-text").textContent =
    `Looking back at event #${seq}` + (e ? ` (${e.type}, turn ${e.turn})` : "") +
    `: the battle as the call that published it left it${span} — read-only`;
  $("travel-banner").hidden = false;
  document.body.classList.add("past");
}

function backToLive() {
  ui.past = null;
  delete document.body.dataset.at;
  $("travel-banner").hidden = true;
  document.body.classList.remove("past");
  renderEvents();
  if (ui.live) draw(ui.live.state);
}

// ---------------------------------------------------------------- drawing
const ICONS = {
  attack: '<svg viewBox="0 0 16 16"><path d="M2 14 L10 6 L9 4 L14 2 L12 7 L10 6 M2 14 L4 14 L4 12" stroke="#f08080" stroke-width="1.6" fill="none"/></svg>',
  defend: '<svg viewBox="0 0 16 16"><path d="M8 1 L14 3 L13 9 Q11 13 8 15 Q5 13 3 9 L2 3 Z" fill="#6aa8f0"/></svg>',
  buff: '<svg viewBox="0 0 16 16"><path d="M8 2 L14 9 L10 9 L10 14 L6 14 L6 9 L2 9 Z" fill="#8ad07a"/></svg>',
  debuff: '<svg viewBox="0 0 16 16"><path d="M8 14 L14 7 L10 7 L10 2 L6 2 L6 7 L2 7 Z" fill="#d07ac0"/></svg>',
  unknown: '<svg viewBox="0 0 16 16"><text x="4" y="13" font-size="13" fill="#ccc">?</text></svg>',
};

function intentHtml(it) {
  const parts = it.kind.split("_");
  const icons = parts.map((p) => ICONS[p] || ICONS.unknown).join("");
  let nums = "";
  if (it.damage !== null && it.damage !== undefined) {
    nums += ` <b>${it.damage}${it.hits > 1 ? "×" + it.hits : ""}</b>`;
  }
  if (it.block !== null && it.block !== undefined) nums += ` <span class="blockv">+${it.block}</span>`;
  const cls = parts[0] in ICONS ? parts[0] : "";
  return `<span class="intent ${cls}" title="${esc(it.kind)}">${icons}${esc(it.name)}${nums}</span>`;
}

function unitHtml(u, opts) {
  const pct = u.max_hp ? Math.max(0, Math.round((100 * u.hp) / u.max_hp)) : 0;
  const chips = u.statuses.map((s) =>
    `<span class="chip${s.debuff ? " debuff" : ""}" title="${esc(s.text)}">${esc(s.name)} ${s.stacks}</span>`).join("");
  const intents = u.intents.map(intentHtml).join(" ");
  const cls = ["unit", u.player ? "player" : "enemy", u.alive ? "" : "dead",
    opts.targetable && !u.player && u.alive ? "targetable" : ""].join(" ");
  return `<div class="${cls}" data-uid="${u.uid}" data-index="${u.index}">
    <div class="name">${esc(u.name)}${u.alive ? "" : " (dead)"}</div>
    <div class="bar"><i style="width:${pct}%"></i><span class="hp">${u.hp}/${u.max_hp}</span></div>
    <div>Block <span class="blockv block">${u.block}</span></div>
    <div class="chips">${chips}</div>${intents ? `<div>${intents}</div>` : ""}</div>`;
}

function cardHtml(c, extra) {
  extra = extra || {};
  const cls = ["card", c.type, c.upgraded ? "upgraded" : "", c.playable ? "playable" : "",
    extra.cls || ""].join(" ");
  let costCls = "";
  if (typeof c.cost === "number" && typeof c.base_cost === "number") {
    costCls = c.cost < c.base_cost ? "cheaper" : c.cost > c.base_cost ? "dearer" : "";
  }
  const kws = c.keywords.length ? `<div class="muted">${c.keywords.map(esc).join(" · ")}</div>` : "";
  return `<div class="${cls}" ${extra.attrs || ""} data-uid="${c.uid ?? ""}" data-card="${esc(c.id)}">
    <div class="cost ${costCls}">${esc(c.cost)}</div>
    ${extra.top ? '<span class="top">TOP</span>' : ""}
    <div class="cname">${esc(c.name)}</div>
    <div class="ctype">${esc(c.type)}</div>
    <div class="ctext">${esc(c.text)}</div>${kws}
    <div class="cid">${c.uid === null || c.uid === undefined || c.uid < 0 ? "" : "#" + c.uid}</div></div>`;
}

function draw(s) {
  const prev = ui.shown;
  ui.shown = s;
  const live = ui.past === null;
  const play = ui.mode === "play" && live;
  $("phase-now").textContent = s.phase;
  $("turn").textContent = s.turn;
  $("energy").textContent = s.active ? `${s.energy}/${s.energy_per_turn}` : "-";
  $("run-hp").textContent = `${s.run_hp[0]}/${s.run_hp[1]}`;
  $("gold").textContent = s.gold;

  // banners: which pause holds the wave and why input is locked; the result
  $("lock-banner").hidden = !s.lock;
  if (s.lock) { $("lock-title").textContent = `${s.lock.title}:`; $("lock-why").textContent = s.lock.why + " Input is locked."; }
  const rb = $("result-banner");
  if (s.rewards) {
    rb.hidden = false; rb.className = "banner result";
    rb.textContent = "Battle won: rewards are offered (only rewards can be input now).";
  } else if (!s.active && s.result !== null) {
    rb.hidden = false; rb.className = "banner result" + (s.result ? "" : " lost");
    rb.textContent = s.result ? `Battle won in ${s.turn} turns.` : `Battle lost on turn ${s.turn}.`;
  } else rb.hidden = true;

  // the table: units (targets), hand, choice, rewards, next battle
  const sel = ui.selected;
  const selCard = sel !== null ? s.cards[s.piles.hand[sel]] : null;
  const targeting = play && selCard && selCard.target === "single_enemy";
  $("units-row").innerHTML = s.units.map((u) => unitHtml(u, { targetable: targeting })).join("")
    || '<span class="muted">no battle</span>';
  $("target-hint").hidden = !targeting;
  $("hand").innerHTML = s.piles.hand.map((uid, i) =>
    cardHtml(s.cards[uid], { attrs: `data-index="${i}"`, cls: i === sel ? "selected" : "" })).join("")
    || '<span class="muted">hand is empty</span>';
  // the seed's UI checks: while a Choice, Wait or Gate holds the wave (or outside PlayerPhase)
  // the hand and End Turn are masked
  const open = s.active && s.phase === "PLAYER_PHASE" && !s.lock && !s.rewards;
  $("hand").classList.toggle("locked", !open);
  $("end-turn").disabled = !play || !open;
  $("end-turn").hidden = ui.mode !== "play";

  const ch = $("choice");
  ch.hidden = !s.choice;
  if (s.choice) {
    const key = JSON.stringify(s.choice);
    if (key !== ui.choiceKey) { ui.choiceKey = key; ui.picked = new Set(); }
    $("choice-prompt").textContent = s.choice.prompt || "Choose";
    $("choice-range").textContent = s.choice.min === s.choice.max
      ? `(pick ${s.choice.min})` : `(pick ${s.choice.min} to ${s.choice.max})`;
    $("choice-cands").innerHTML = s.choice.candidates.map((c, i) => {
      const pick = `data-cand="${i}"`;
      const cls = "pickable" + (ui.picked.has(i) ? " picked" : "");
      if (c.kind === "card") return cardHtml(c.card, { attrs: pick, cls });
      if (c.kind === "unit") return `<div class="${cls}" ${pick}>${unitHtml(c.unit, {})}</div>`;
      return `<button ${pick} class="${cls}">${esc(c.label)}</button>`;
    }).join("");
    const n = ui.picked.size;
    $("choice-confirm").disabled = !play || n < s.choice.min || n > s.choice.max;
    $("choice-confirm").hidden = ui.mode !== "play";
  } else ui.choiceKey = "";

  $("rewards").hidden = !s.rewards;
  if (s.rewards) {
    $("reward-list").innerHTML = s.rewards.map((r) => `<div class="reward" data-reward="${r.index}">
      ${r.card ? cardHtml(r.card) : ""}<button class="take" data-reward="${r.index}" ${play ? "" : "disabled"}>${esc(r.label)}</button></div>`).join("");
    $("reward-skip").disabled = !play;
  }
  $("next").hidden = !(ui.mode === "play" && !s.active && s.result !== null);
  $("next-title").textContent = s.result ? "Battle won: on to the next battle" : "Battle lost: start a new run";
  $("next-battle").disabled = !play;

  drawTabs(s);
  flashMoved(s, prev);
}

// only the open tab is drawn (the others when they open): less work per pushed state
function drawTabs(s) {
  const on = (name) => $("tab-" + name).classList.contains("on");
  if (on("phase")) drawPhase(s);
  if (on("pile")) drawPiles(s);
  if (on("units")) drawUnits(s);
}

function drawPhase(s) {
  $("phase-big").textContent = s.phase;
  $("phase-turn").textContent = s.turn;
  $("phase-allowed").textContent = s.allowed;
  $("phase-table").innerHTML = "<tr><th>Phase</th><th>Player input</th></tr>" + ui.phases.map(([p, t]) =>
    `<tr class="${p === s.phase ? "now" : ""}"><td>${esc(p)}</td><td>${esc(t)}</td></tr>`).join("");
  const byTurn = [];
  s.history.forEach(([p, t], i) => {
    if (!byTurn.length || byTurn[byTurn.length - 1].turn !== t) byTurn.push({ turn: t, items: [] });
    byTurn[byTurn.length - 1].items.push(
      `<span class="ph${i === s.history.length - 1 ? " last" : ""}">${esc(p)}</span>`);
  });
  $("history").innerHTML = byTurn.map((g) =>
    `<div class="turn"><span class="tn">turn ${g.turn}</span>${g.items.join("→")}</div>`).join("")
    || '<span class="muted">no transitions yet</span>';
}

function drawPiles(s) {
  const order = $("draw-order").checked;
  let html = "";
  for (const [key, title] of PILES) {
    let uids = s.piles[key] || [];
    let note = "";
    if (key === "draw") {
      if (order) { uids = uids.slice().reverse(); note = "top first (debug)"; }
      else {
        uids = uids.slice().sort((a, b) => s.cards[a].name.localeCompare(s.cards[b].name) || a - b);
        note = "order hidden";
      }
    }
    const cards = uids.map((uid, i) => cardHtml(s.cards[uid],
      { top: key === "draw" && order && i === 0, attrs: `data-pile="${key}"` })).join("");
    html += `<div class="pile" id="pile-${key}"><h4>${title} <span class="muted">(${uids.length})${note ? " · " + note : ""}</span></h4>
      <div class="cards small">${cards || '<span class="muted">empty</span>'}</div></div>`;
  }
  html += `<div class="pile" id="pile-master"><h4>Master deck <span class="muted">(${s.master.length}) · the run's deck</span></h4>
    <div class="cards small">${s.master.map((c) => cardHtml(Object.assign({}, c, { uid: null }))).join("")}</div></div>`;
  $("piles").innerHTML = html;
}

function drawUnits(s) {
  $("units-detail").innerHTML = s.units.map((u) => {
    const rows = u.statuses.map((st) =>
      `<tr><td>${esc(st.name)}</td><td>${st.stacks}</td><td class="muted">${esc(st.text)}</td></tr>`).join("");
    const intents = u.player ? "" : `<div><b>Intent:</b> ${u.intents.map(intentHtml).join(" ") || '<span class="muted">none</span>'}</div>`;
    return `<div class="unit ${u.player ? "player" : "enemy"}${u.alive ? "" : " dead"}" data-uid="${u.uid}">
      <div class="name">${esc(u.name)} <span class="muted">${esc(u.id)}${u.player ? "" : " · e" + u.index}</span>${u.alive ? "" : " (dead)"}</div>
      <div class="bar"><i style="width:${u.max_hp ? Math.max(0, (100 * u.hp) / u.max_hp) : 0}%"></i><span class="hp">${u.hp}/${u.max_hp} HP</span></div>
      <div>Block <span class="blockv block">${u.block}</span></div>${intents}
      <table><tr><th>Status</th><th>Stacks</th><th></th></tr>${rows || '<tr><td colspan="3" class="muted">no statuses</td></tr>'}</table></div>`;
  }).join("") || '<span class="muted">no battle</span>';
}

function flashMoved(s, prev) {
  const loc = new Map();
  for (const [key] of PILES) {
    if (key === "played" || key === "drawn") continue;
    for (const uid of s.piles[key] || []) loc.set(uid, key);
  }
  if (prev) {
    document.querySelectorAll(".card[data-uid]").forEach((el) => {
      const uid = Number(el.dataset.uid);
      if (el.dataset.uid !== "" && ui.prevLoc.has(uid) && ui.prevLoc.get(uid) !== loc.get(uid)) {
        el.classList.add("moved");
      }
    });
  }
  ui.prevLoc = loc;
}

function renderEvents() {
  if (!$("tab-events").classList.contains("on")) return; // drawn when its tab opens
  const sel = $("event-type");
  const cur = sel.value;
  const types = [...ui.types].sort();
  if (sel.options.length !== types.length + 1) {
    sel.innerHTML = '<option value="">all</option>' + types.map((t) => `<option>${esc(t)}</option>`).join("");
    sel.value = cur;
  }
  const shown = ui.events.filter((e) => !sel.value || e.type === sel.value);
  const tail = shown.slice(-2000);
  const at = ui.past === null ? null : ui.events.find((x) => x.seq === ui.past);
  const pastWave = at ? at.wave : null;
  $("event-count").textContent = `${shown.length} events` + (tail.length < shown.length ? " (last 2000 shown)" : "");
  $("events").innerHTML = tail.map((e) => {
    const data = Object.entries(e.data).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
    const kept = e.travel && (!ui.live || e.wave >= ui.live.oldest_wave);
    const cls = "event-row" + (kept ? "" : " norec") + (ui.past === e.seq ? " at" : "")
      + (pastWave !== null && e.wave === pastWave && ui.past !== e.seq ? " wave" : "");
    return `<div class="${cls}" data-seq="${e.seq}" data-type="${esc(e.type)}" title="${kept ? "see the battle as the call that published this event left it" : "no recorded state (before the monitor was attached, or too old)"}">
      <span>#${e.seq}</span><span>t${e.turn}</span><span class="et">${esc(e.type)}</span><span>${esc(data)}</span></div>`;
  }).join("");
}

function fillEncounters() {
  const sel = $("next-encounter");
  sel.innerHTML = ui.encounters.map((e) => `<option value="${esc(e.id)}">${esc(e.name)} (${esc(e.id)})</option>`).join("");
}

// ---------------------------------------------------------------- input
document.addEventListener("click", (ev) => {
  const t = ev.target.closest("[data-tab], [data-index], [data-cand], [data-reward], .event-row, button, .unit");
  if (!t) return;
  if (t.dataset.tab) {
    document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("on", b === t));
    document.querySelectorAll(".tab").forEach((x) => x.classList.toggle("on", x.id === "tab-" + t.dataset.tab));
    renderEvents();
    if (ui.shown) drawTabs(ui.shown);
    return;
  }
  if (t.classList.contains("event-row")) {
    if (!t.classList.contains("norec")) travel(Number(t.dataset.seq));
    return;
  }
  if (t.id === "back-live") { backToLive(); return; }
  const s = ui.shown;
  if (ui.mode !== "play" || ui.past !== null || !s) return;
  if (t.closest("#hand") && t.dataset.index !== undefined) {
    const i = Number(t.dataset.index);
    const c = s.cards[s.piles.hand[i]];
    if (c.target === "single_enemy") { ui.selected = ui.selected === i ? null : i; draw(s); }
    else act(`play ${i}`);
    return;
  }
  if (t.classList.contains("unit") && t.closest("#units-row") && ui.selected !== null) {
    const idx = Number(t.dataset.index);
    if (idx >= 0) act(`play ${ui.selected} @e${idx}`);
    return;
  }
  if (t.dataset.cand !== undefined) {
    const i = Number(t.dataset.cand);
    if (ui.picked.has(i)) ui.picked.delete(i); else ui.picked.add(i);
    draw(s);
    return;
  }
  if (t.id === "choice-confirm") {
    const picks = [...ui.picked].sort((a, b) => a - b);
    act(picks.length ? `choose ${picks.join(",")}` : "choose -");
    return;
  }
  if (t.classList.contains("take")) { act(`reward ${t.dataset.reward}`); return; }
  if (t.id === "reward-skip") { act("skip"); return; }
  if (t.id === "end-turn") { act("end"); return; }
  if (t.id === "next-battle") { send({ type: "next", encounter: $("next-encounter").value || null }); }
});

$("event-type").addEventListener("change", renderEvents);
$("draw-order").addEventListener("change", () => { if (ui.shown) drawPiles(ui.shown); });
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && ui.selected !== null) { ui.selected = null; draw(ui.shown); }
});

connect();
