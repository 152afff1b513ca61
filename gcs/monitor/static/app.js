// The Game Card Monitor page: one WebSocket, pushed states, five tabs, time travel over moments,
// play mode with branches, and read-only recordings.
"use strict";

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => (
  { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const token = new URLSearchParams(location.search).get("token") || "";

const ui = {
  ws: null, mode: "watch", phases: [], encounters: [], generation: -1,
  branches: [], branch: 0, encounter: null,
  live: null,        // the latest live state message
  shown: null,       // the state drawn now (live, or a past moment's)
  past: null,        // the moment looked at, or null when live
  atSeq: null,       // the event clicked to travel (highlighted), if any
  events: [], types: new Set(), battles: new Map(),
  moments: [], kept: { recent: 0, thinned: 0, thin: 1 },
  rows: [],          // the Events tab's rows: event indexes, or {e: index} for a group header
  shownEvents: 0, typesDirty: false,
  rowKey: null,      // (battle, turn) of the last row's group
  selected: null,    // hand index waiting for a target
  hintAt: null,      // the live version a hint was asked at (its answer is shown while it holds)
  picked: new Set(), // Choice candidates picked
  prevLoc: new Map(), // card uid -> pile, as last drawn (moved cards flash)
  choiceKey: "", nextShown: false,
};

const PILES = [["hand", "Hand"], ["draw", "Draw"], ["discard", "Discard"], ["exhaust", "Exhaust"],
  ["played", "Played this turn"], ["drawn", "Drawn this turn"]];
const ROW = 22; // px: the height of one row of the Events tab (a virtual list)

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

function download(name, data) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1) + "\n"], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url; a.download = name; document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function receive(msg) {
  switch (msg.type) {
    case "hello":
      ui.mode = msg.mode; ui.phases = msg.phases; ui.encounters = msg.encounters;
      ui.branches = msg.branches || []; ui.branch = msg.branch || 0; ui.encounter = msg.encounter || null;
      if (msg.generation !== ui.generation) {
        ui.generation = msg.generation; ui.events = []; ui.types = new Set(); ui.battles = new Map();
        ui.moments = []; ui.past = null; ui.atSeq = null; ui.selected = null;
        resetRows(); hideTravel();
      }
      $("mode").textContent = { play: "PLAY", replay: "REPLAY · read-only", watch: "WATCH" }[msg.mode];
      $("mode").className = "badge " + msg.mode;
      document.body.dataset.mode = msg.mode;
      fillEncounters(); fillBranches(); drawTimebar();
      break;
    case "events":
      if (msg.generation !== ui.generation) return;
      addEvents(msg.events);
      break;
    case "moments":
      if (msg.generation !== ui.generation) return;
      for (const m of msg.moments) ui.moments.push(m);
      ui.kept = { recent: msg.recent, thinned: msg.thinned, thin: msg.thin };
      if (ui.moments.length > 20000) ui.moments.splice(0, ui.moments.length - 20000);
      drawTimebar();
      renderEvents();  // (rows of the moment that just ended can be travelled to now)
      break;
    case "state":
      if (msg.generation !== ui.generation) return;
      if (msg.live) {
        if (!ui.live || ui.live.version !== msg.version) clearHints();
        ui.live = msg;
        if (msg.branches) { ui.branches = msg.branches; fillBranches(); }
        if (ui.past === null) draw(msg.state);
        document.body.dataset.version = msg.version;
      } else if (ui.past === msg.moment) {
        draw(msg.state);
        document.body.dataset.at = msg.moment;
      }
      break;
    case "hint":
      showHints(msg); break;
    case "save":
      download(`gcs-save-moment-${msg.moment}.json`, msg.data); break;
    case "replay":
      download(`replay-branch-${ui.branch}.json`, msg.data); break;
    case "refused": case "error":
      if (ui.hintAt !== null && (msg.action === "hint" || msg.type === "error")) {
        clearHints(); $("hint").disabled = false;
      }
      toast(msg.error); break;
    case "ok":
      break;
  }
}

// ---------------------------------------------------------------- hints (play mode)
function askHint() {
  if (!ui.live) return;
  ui.hintAt = ui.live.version;
  $("hint").disabled = true; $("hint").textContent = "Thinking…";
  send({ type: "hint" });
}

function clearHints() {
  ui.hintAt = null;
  $("hints").hidden = true; $("hints").innerHTML = "";
  $("hint").textContent = "Hint";
}

// an action's text in the table's words: "Strike → Gremlin Nob", "End Turn", a reward's label
function actionLabel(text, s) {
  const m = /^play (\d+)(?: @e(\d+))?$/.exec(text);
  if (m && s && s.active) {
    const card = s.cards[s.piles.hand[Number(m[1])]];
    const foe = m[2] === undefined ? null : s.units.find((u) => !u.player && u.index === Number(m[2]));
    if (card) return card.name + (foe ? ` → ${foe.name}` : "");
  }
  const r = /^reward (\d+)$/.exec(text);
  if (r && s && s.rewards) {
    const offer = s.rewards.find((x) => x.index === Number(r[1]));
    if (offer) return offer.label;
  }
  return { end: "End Turn", skip: "Skip rewards", "choose -": "Choose nothing" }[text] || text;
}

// the ranked actions, best first: each a button that plays it, with the search's estimate
// (the mean outcome of its playouts: 0.5 + HP share for a win, below 0.25 for a loss)
function showHints(msg) {
  $("hint").textContent = "Hint";
  if (ui.hintAt === null || !ui.live || ui.live.version !== ui.hintAt || ui.past !== null) return;
  $("hint").disabled = false;
  const rows = msg.hints.map((h) => {
    const v = h.value === null ? "–" : h.value.toFixed(2);
    const how = h.visits ? `${h.visits} playouts` : "deck score";
    return `<button type="button" class="hint-row${h.best ? " best" : ""}" data-action="${esc(h.action)}" title="${esc(h.action)}: value ${v} (${how}); click to play it">
      <span class="hint-action">${esc(actionLabel(h.action, ui.shown))}</span> <span class="hint-value">${v}</span></button>`;
  }).join("");
  $("hints").innerHTML = rows; $("hints").hidden = false;
}

let toastTimer = null;
function toast(text) {
  const t = $("toast");
  t.textContent = text; t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
}

// ---------------------------------------------------------------- moments and time travel
function momentIndex(id) { return ui.moments.length ? id - ui.moments[0].id : -1; }
function momentById(id) { const i = momentIndex(id); return i >= 0 && i < ui.moments.length ? ui.moments[i] : null; }

// whether a moment's state can be shown: every moment of the recent window; before it, the
// thinned call moments (watch) or any call moment (play and replay re-play it from its steps)
function kept(m) {
  if (!m) return false;
  if (m.id >= ui.kept.recent) return true;
  if (ui.mode !== "watch" && m.step >= 0) return true;
  return m.kind === "call" && m.id >= ui.kept.thinned && m.id % ui.kept.thin === 0;
}

function travelTo(id, seq) {
  const m = momentById(id);
  if (!kept(m)) { toast(`moment ${id}: its state is no longer kept`); return; }
  const live = ui.moments.length ? ui.moments[ui.moments.length - 1].id : null;
  if (id === live && seq === undefined) { backToLive(); return; }
  ui.past = id; ui.atSeq = seq === undefined ? null : seq; ui.selected = null;
  send({ type: "travel", moment: id });
  const span = m.last >= m.first ? `, events #${m.first}–#${m.last}` : "";
  $("travel-text").textContent = `Looking back at moment ${id}: ${m.label} (battle ${m.battle}, turn ${m.turn}${span}) — read-only`;
  $("travel-banner").hidden = false;
  document.body.classList.add("past");
  renderEvents(true);
  drawTimebar();
}

function step(delta) {
  if (!ui.moments.length) return;
  const last = ui.moments.length - 1;
  let i = ui.past === null ? last : momentIndex(ui.past);
  for (i += delta; i >= 0 && i <= last; i += delta) {
    if (kept(ui.moments[i])) break;
  }
  if (i < 0 || i > last) return;
  if (i === last) backToLive(); else travelTo(ui.moments[i].id);
}

function hideTravel() {
  $("travel-banner").hidden = true;
  document.body.classList.remove("past");
  delete document.body.dataset.at;
}

function backToLive() {
  ui.past = null; ui.atSeq = null;
  hideTravel();
  renderEvents(true);
  drawTimebar();
  if (ui.live) draw(ui.live.state);
}

function drawTimebar() {
  const n = ui.moments.length;
  const sl = $("t-slider");
  sl.max = Math.max(0, n - 1);
  const i = ui.past === null ? n - 1 : momentIndex(ui.past);
  sl.value = Math.max(0, i);
  const m = ui.moments[i];
  $("t-label").textContent = m ? `moment ${m.id} · ${m.label} · battle ${m.battle}, turn ${m.turn}`
    + (ui.past === null ? " (live)" : "") : "";
  $("t-prev").disabled = n < 2 || i <= 0;
  $("t-next").disabled = ui.past === null;
  $("t-live").disabled = ui.past === null;
  $("t-first").disabled = n < 2 || i <= 0;
  const fork = ui.mode === "play" && ui.past !== null && m && m.step >= 0;
  $("t-fork").disabled = !fork;
  $("t-fork").title = !m || ui.past === null ? "travel to a past moment first"
    : m.step < 0 ? "a moment inside a call: play on from the moment the call ended"
      : "play on from this moment, in a new branch";
}

function fillBranches() {
  $("branch").innerHTML = ui.branches.map((b) =>
    `<option value="${b.id}">${esc(b.name)} · ${b.steps} steps${b.result === null ? "" : b.result ? " · won" : " · lost"}</option>`).join("");
  $("branch").value = String(ui.branch);
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
  const unplayable = extra.hand && !c.playable && !!c.why;  // (a past moment says nothing)
  const cls = ["card", c.type, c.upgraded ? "upgraded" : "", c.playable ? "playable" : "",
    unplayable ? "unplayable" : "", extra.cls || ""].join(" ");
  let costCls = "";
  if (typeof c.cost === "number" && typeof c.base_cost === "number") {
    costCls = c.cost < c.base_cost ? "cheaper" : c.cost > c.base_cost ? "dearer" : "";
  }
  const kws = c.keywords.length ? `<div class="ckw">${c.keywords.map(esc).join(" · ")}</div>` : "";
  const title = unplayable && c.why ? ` title="cannot play: ${esc(c.why)}"` : "";
  // the card's picture (its definition's ``art``): a URL as it is, a path read from the pack
  const src = !c.art ? "" : /^(https?:|data:image\/)/i.test(c.art) ? c.art
    : `/art/${c.art.split("/").map(encodeURIComponent).join("/")}?token=${encodeURIComponent(token)}`;
  const art = src ? `<img class="cart" src="${esc(src)}" alt="" loading="lazy" onerror="this.remove()">` : "";
  return `<div class="${cls}" ${extra.attrs || ""} data-uid="${c.uid ?? ""}" data-card="${esc(c.id)}"${title}>
    <div class="cost ${costCls}">${esc(c.cost)}</div>
    ${extra.top ? '<span class="top">TOP</span>' : ""}
    <div class="cname">${esc(c.name)}</div>
    <div class="ctype">${esc(c.type)}</div>${art}
    <div class="ctext">${esc(c.text)}</div>${kws}
    <div class="cid">${c.uid === null || c.uid === undefined || c.uid < 0 ? "" : "#" + c.uid}</div></div>`;
}

// What the table shows: the battle, or (none active) the final board of the one that ended.
function view(s) {
  if (s.active || !s.board) return s;
  return Object.assign({}, s, { units: s.board.units, cards: s.board.cards, piles: s.board.piles,
    turn: s.board.turn, boardPhase: s.board.phase, encounter: s.board.encounter, final: true });
}

function draw(s) {
  const prev = ui.shown;
  ui.shown = s;
  const v = view(s);
  const live = ui.past === null;
  const play = ui.mode === "play" && live;
  $("phase-now").textContent = s.phase;
  $("turn").textContent = v.turn;
  $("energy").textContent = s.active ? `${s.energy}/${s.energy_per_turn}` : "-";
  $("hp").textContent = `${s.hp[0]}/${s.hp[1]}`;
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
    rb.textContent = (s.result ? `Battle won in ${v.turn} turns.` : `Battle lost on turn ${v.turn}.`)
      + (v.final ? " The final board is shown." : "");
  } else rb.hidden = true;

  // the table: units (targets), hand, choice, rewards, next battle
  const sel = ui.selected;
  const selCard = sel !== null && s.active ? s.cards[s.piles.hand[sel]] : null;
  const targeting = play && selCard && selCard.target === "single_enemy";
  $("table").classList.toggle("final", !!v.final);
  $("units-row").innerHTML = v.units.map((u) => unitHtml(u, { targetable: targeting })).join("")
    || '<span class="muted">no battle</span>';
  $("target-hint").hidden = !targeting;
  $("hand").innerHTML = v.piles.hand.map((uid, i) =>
    cardHtml(v.cards[uid], { hand: s.active, attrs: `data-index="${i}"`, cls: i === sel ? "selected" : "" })).join("")
    || '<span class="muted">hand is empty</span>';
  // the seed's UI checks: while a Choice, Wait or Gate holds the wave (or outside PlayerPhase)
  // the hand and End Turn are masked
  const open = s.active && s.phase === "PLAYER_PHASE" && !s.lock && !s.rewards;
  $("hand").classList.toggle("locked", !open);
  $("end-turn").disabled = !play || !open;
  $("end-turn").hidden = ui.mode !== "play";
  $("hint").hidden = ui.mode !== "play";
  $("hint").disabled = !play || !s.legal.length || ui.hintAt !== null;
  if (!play) $("hints").hidden = true;

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
    $("reward-list").innerHTML = s.rewards.map((r) => `<div class="reward${play ? " takeable" : ""}" data-reward="${r.index}">
      ${r.card ? cardHtml(r.card, { attrs: `data-reward="${r.index}"` }) : ""}<button class="take" data-reward="${r.index}" ${play ? "" : "disabled"}>${esc(r.label)}</button></div>`).join("");
    $("reward-skip").disabled = !play;
  }
  const next = ui.mode === "play" && !s.active && s.result !== null;
  $("next").hidden = !next;
  if (next && !ui.nextShown) {  // the encounter just played, unless the player picks another
    const enc = v.encounter || ui.encounter;
    if (enc && ui.encounters.some((e) => e.id === enc)) $("next-encounter").value = enc;
  }
  ui.nextShown = next;
  $("next-title").textContent = s.result ? "Battle won: on to the next battle" : "Battle lost: start a new run";
  $("next-battle").disabled = !play;

  drawTabs(s);
  flashMoved(v, prev);
}

// only the open tab is drawn (the others when they open): less work per pushed state
function drawTabs(s) {
  const on = (name) => $("tab-" + name).classList.contains("on");
  if (on("phase")) drawPhase(s);
  if (on("pile")) drawPiles(view(s));
  if (on("units")) drawUnits(view(s));
  if (on("state")) drawState(s);
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
  let html = s.final ? '<p class="muted">The battle is over: its piles as it ended.</p>' : "";
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

function drawState(s) {
  const live = ui.past === null;
  const play = ui.mode === "play" && live;
  $("legal-note").textContent = !live ? "(live only: this is a past moment)"
    : play ? "(click one to apply it)" : `(${s.legal.length} now)`;
  $("legal").innerHTML = s.legal.map((a) =>
    `<button type="button" class="legal-action" data-action="${esc(a)}" ${play ? "" : "disabled"}>${esc(a)}</button>`).join("")
    || '<span class="muted">none</span>';
  $("raw").textContent = JSON.stringify(s, null, 1);
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

// ---------------------------------------------------------------- the Events tab: a virtual list
// Rows are kept as indexes into ui.events (and group headers); a push appends only the new
// events, and only the rows in view are in the DOM, so a push costs the same at any length.
function matches(e) {
  const type = $("event-type").value;
  if (type && e.type !== type) return false;
  const q = $("event-search").value.trim().toLowerCase();
  if (!q) return true;
  if (e._text === undefined) e._text = (e.type + " " + JSON.stringify(e.data)).toLowerCase();
  return e._text.includes(q);
}

function groupTitle(e) {  // (at render time: a battle's encounter is known from its BattleStarted)
  const enc = ui.battles.get(e.battle);
  const turn = e.turn ? `turn ${e.turn}` : "setup";
  return e.battle ? `Battle ${e.battle}${enc ? " · " + enc : ""} · ${turn}` : "Before any battle";
}

function pushRow(i) {
  const e = ui.events[i];
  const key = e.battle + ":" + e.turn;
  if (key !== ui.rowKey) { ui.rows.push({ e: i }); ui.rowKey = key; }
  ui.rows.push(i);
  ui.shownEvents += 1;
}

function resetRows() {
  ui.rows = []; ui.rowKey = null; ui.shownEvents = 0;
  ui.events.forEach((e, i) => { if (matches(e)) pushRow(i); });
}

function addEvents(list) {
  const box = $("events");
  const follow = box.scrollTop + box.clientHeight >= box.scrollHeight - ROW;
  let dropped = 0;
  for (const e of list) {
    ui.events.push(e);
    if (!ui.types.has(e.type)) { ui.types.add(e.type); ui.typesDirty = true; }
    if (e.type === "BattleStarted") ui.battles.set(e.battle, e.data.encounter);
    if (matches(e)) pushRow(ui.events.length - 1);
  }
  const limit = 20000;
  if (ui.events.length > limit) {  // the server's ring: keep the page's as long
    dropped = ui.events.length - limit;
    ui.events.splice(0, dropped);
    resetRows();
  }
  renderEvents(follow);
}

function renderEvents(follow) {
  if (!$("tab-events").classList.contains("on")) return; // drawn when its tab opens
  const sel = $("event-type");
  if (ui.typesDirty) {
    const cur = sel.value;
    sel.innerHTML = '<option value="">all</option>' + [...ui.types].sort().map((t) => `<option>${esc(t)}</option>`).join("");
    sel.value = cur; ui.typesDirty = false;
  }
  const box = $("events");
  const n = ui.rows.length;
  $("events-spacer").style.height = `${n * ROW}px`;
  $("event-count").textContent = `${ui.shownEvents} of ${ui.events.length} events`;
  if (follow === true && ui.past === null) box.scrollTop = box.scrollHeight;
  const first = Math.max(0, Math.floor(box.scrollTop / ROW) - 8);
  const last = Math.min(n, Math.ceil((box.scrollTop + box.clientHeight) / ROW) + 8);
  let html = "";
  for (let r = first; r < last; r++) {
    const row = ui.rows[r];
    const top = `style="top:${r * ROW}px"`;
    if (typeof row !== "number") { html += `<div class="event-group" ${top}>${esc(groupTitle(ui.events[row.e]))}</div>`; continue; }
    const e = ui.events[row];
    const m = momentById(e.m);
    const ok = e.m >= 0 && kept(m);
    const data = Object.entries(e.data).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
    const cls = "event-row" + (ok ? "" : " norec") + (ui.atSeq === e.seq ? " at" : "")
      + (ui.past !== null && e.m === ui.past && ui.atSeq !== e.seq ? " wave" : "");
    html += `<div class="${cls}" ${top} data-seq="${e.seq}" data-m="${e.m}" data-type="${esc(e.type)}" title="${esc(data)}">
      <span>#${e.seq}</span><span>t${e.turn}</span><span class="et">${esc(e.type)}</span><span class="ed">${esc(data)}</span></div>`;
  }
  $("events-rows").innerHTML = html;
}

function fillEncounters() {
  const sel = $("next-encounter");
  sel.innerHTML = ui.encounters.map((e) => `<option value="${esc(e.id)}">${esc(e.name)} (${esc(e.id)})</option>`).join("");
}

// ---------------------------------------------------------------- input
document.addEventListener("click", (ev) => {
  const t = ev.target.closest("[data-tab], [data-index], [data-cand], [data-reward], [data-action], .event-row, button, .unit");
  if (!t) return;
  if (t.dataset.tab) {
    document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("on", b === t));
    document.querySelectorAll(".tab").forEach((x) => x.classList.toggle("on", x.id === "tab-" + t.dataset.tab));
    if (t.dataset.tab === "events") renderEvents(ui.past === null);
    if (ui.shown) drawTabs(ui.shown);
    return;
  }
  if (t.classList.contains("event-row")) {
    if (!t.classList.contains("norec")) travelTo(Number(t.dataset.m), Number(t.dataset.seq));
    return;
  }
  switch (t.id) {
    case "back-live": case "t-live": backToLive(); return;
    case "t-prev": step(-1); return;
    case "t-next": step(1); return;
    case "t-first": { const m = ui.moments.find(kept); if (m) travelTo(m.id); return; }
    case "t-fork": if (ui.past !== null) send({ type: "fork", moment: ui.past }); return;
    case "save-replay": send({ type: "replay", branch: null }); return;
    case "dl-view": if (ui.shown) download(ui.past === null ? "gcs-view-live.json" : `gcs-view-moment-${ui.past}.json`, ui.shown); return;
    case "dl-save": send({ type: "save", moment: ui.past }); return;
  }
  const s = ui.shown;
  if (ui.mode !== "play" || ui.past !== null || !s) return;
  if (t.dataset.action !== undefined) { act(t.dataset.action); return; }
  if (t.closest("#hand") && t.dataset.index !== undefined && s.active) {
    const i = Number(t.dataset.index);
    const c = s.cards[s.piles.hand[i]];
    if (!c.playable) return; // greyed: the tooltip says why
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
  if (t.dataset.reward !== undefined && s.rewards) { act(`reward ${t.dataset.reward}`); return; }
  if (t.id === "reward-skip") { act("skip"); return; }
  if (t.id === "end-turn") { act("end"); return; }
  if (t.id === "hint") { askHint(); return; }
  if (t.id === "next-battle") { send({ type: "next", encounter: $("next-encounter").value || null }); }
});

$("event-type").addEventListener("change", () => { resetRows(); renderEvents(); });
$("event-search").addEventListener("input", () => { resetRows(); $("events").scrollTop = 0; renderEvents(); });
let scrollQueued = false;
$("events").addEventListener("scroll", () => {
  if (scrollQueued) return;
  scrollQueued = true;
  requestAnimationFrame(() => { scrollQueued = false; renderEvents(); });
});
$("draw-order").addEventListener("change", () => { if (ui.shown) drawPiles(view(ui.shown)); });
$("t-slider").addEventListener("input", () => {
  const m = ui.moments[Number($("t-slider").value)];
  if (!m) return;
  if (m === ui.moments[ui.moments.length - 1]) backToLive(); else if (kept(m)) travelTo(m.id);
});
$("branch").addEventListener("change", () => send({ type: "branch", id: Number($("branch").value) }));
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && ui.selected !== null) { ui.selected = null; draw(ui.shown); return; }
  const tag = (ev.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return; // (the slider steps itself)
  if (ev.key === "ArrowLeft") { ev.preventDefault(); step(-1); }
  if (ev.key === "ArrowRight") { ev.preventDefault(); step(1); }
});

(() => {  // the Events tab's rows live in one absolutely positioned layer
  const rows = document.createElement("div");
  rows.id = "events-rows";
  $("events").appendChild(rows);
})();
connect();
