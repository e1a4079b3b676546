// The table page: draws a session's state and sends moves; controls come from the legal actions.
"use strict";

let session = null;

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function call(method, url, body) {
  document.body.dataset.busy = "1";
  try {
    const response = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) {
      $("#message").textContent = data.error || response.statusText;
      return null;
    }
    $("#message").textContent = "";
    return data;
  } catch (err) {
    $("#message").textContent = String(err);
    return null;
  } finally {
    document.body.dataset.busy = "0";
  }
}

function show(state) {
  if (!state) return;
  session = state;
  history.replaceState(null, "", "/?session=" + state.id);
  const status = $("#status");
  if (state.over) {
    const parts = state.returns.map((r, i) => `seat ${i}: ${r > 0 ? "+" : ""}${r}`);
    status.textContent = "Game over · " + parts.join(" · ");
  } else if (state.replay) {
    status.textContent = state.to_move === -1 ? "Chance to move" : `Seat ${state.to_move} to move`;
  } else {
    status.textContent = state.your_turn ? `Your move (seat ${state.viewer})` : `Seat ${state.to_move} to move`;
  }
  status.dataset.over = String(state.over);
  $("#view").textContent = state.view;
  drawPieces(state);
  const note = $("#note");
  note.hidden = !state.note;
  note.textContent = state.note;
  drawControls(state);
  drawLog(state);
  $("#undo").disabled = !state.can_undo;
  $("#undo").hidden = state.replay;
  $("#back").hidden = $("#forward").hidden = !state.replay;
  $("#back").disabled = state.log.length === 0;
  $("#forward").disabled = state.script.length === 0;
  $("#script").textContent = state.replay
    ? (state.script.length ? "Next: " + state.script.slice(0, 3).join(", ") + (state.script.length > 3 ? " …" : "") : "End of the recorded steps.")
    : "";
  const download = $("#download");
  // Mid-game, a trace of a game with hidden information would show the others' secrets.
  download.hidden = state.hidden_information && !state.over && !state.replay;
  download.href = `/api/sessions/${state.id}/trace.jsonl`;
}

// Pieces of the game's Vassal module named by the words of the view, shown as a legend.
function drawPieces(state) {
  const box = $("#pieces");
  box.replaceChildren();
  const words = new Set(state.view.match(/[A-Za-z0-9_]+/g) || []);
  for (const [word, url] of Object.entries(state.piece_images)) {
    if (!words.has(word)) continue;
    const item = el("span", { class: "piece" });
    item.appendChild(el("img", { src: url, alt: word, title: word }));
    item.appendChild(el("span", {}, word));
    box.appendChild(item);
  }
}

// A button's face: the piece image when a piece of the module matches the word.
function face(button, word, state) {
  const url = state.piece_images[word];
  if (url) button.appendChild(el("img", { src: url, alt: word, title: word }));
  else button.textContent = word;
}

function drawLog(state) {
  const log = $("#log");
  log.replaceChildren();
  let hidden = 0;  // consecutive hidden chance steps are shown as one line
  const flush = (t) => {
    if (hidden === 0) return;
    const text = hidden === 1 ? "chance: (hidden)" : `chance: ${hidden} hidden steps`;
    log.appendChild(el("li", { class: "chance", value: String(t - hidden) }, text));
    hidden = 0;
  };
  for (const move of state.log) {
    if (move.player === -1 && move.action === null) {
      hidden += 1;
      continue;
    }
    flush(move.t);
    const kind = move.by === "chance" ? "chance" : move.by.startsWith("bot") ? "bot" : "human";
    const failing = move.t === state.failing_step ? " failing" : "";
    const attrs = { class: kind + failing, value: String(move.t) };
    if (move.action !== null) attrs["data-action"] = move.action;
    log.appendChild(el("li", attrs, move.text));
  }
  flush(state.log.length);
}

// One fieldset per action name; one row of buttons per argument, in declaration order.
// Choosing a value shows the next argument's values among the legal actions that agree so far.
function drawControls(state) {
  const box = $("#controls");
  box.replaceChildren();
  if (!state.your_turn) return;
  const groups = new Map();
  for (const action of state.legal) {
    if (!groups.has(action.name)) groups.set(action.name, []);
    groups.get(action.name).push(action);
  }
  for (const [name, actions] of groups) {
    const group = el("fieldset", { class: "group", "data-name": name });
    group.appendChild(el("legend", {}, name));
    box.appendChild(group);
    drawStage(group, actions, 0);
  }
}

function drawStage(group, actions, depth) {
  while (group.querySelectorAll(".argrow").length > depth) group.lastChild.remove();
  const row = el("div", { class: "argrow" });
  group.appendChild(row);
  if (actions[0].args.length === 0) {
    const button = el("button", { class: "choice", "data-action": actions[0].text });
    if (session.piece_images[actions[0].name]) face(button, actions[0].name, session);
    else button.textContent = actions[0].text;
    button.title = actions[0].text;
    button.onclick = () => act(actions[0].text);
    row.appendChild(button);
    return;
  }
  const key = actions[0].args[depth][0];
  row.appendChild(el("span", { class: "key" }, key + " ="));
  const values = [...new Set(actions.map((a) => String(a.args[depth][1])))];
  const last = depth === actions[0].args.length - 1;
  for (const value of values) {
    const matching = actions.filter((a) => String(a.args[depth][1]) === value);
    const attrs = { class: "choice", "data-arg": key, "data-value": value };
    if (last) attrs["data-action"] = matching[0].text;
    const button = el("button", attrs);
    face(button, value, session);
    button.onclick = () => {
      if (last) return act(matching[0].text);
      row.querySelectorAll("button").forEach((b) => b.classList.remove("selected"));
      button.classList.add("selected");
      drawStage(group, matching, depth + 1);
    };
    row.appendChild(button);
  }
}

async function act(text) {
  show(await call("POST", `/api/sessions/${session.id}/act`, { action: text, seat: session.viewer }));
}

async function newGame(event) {
  if (event) event.preventDefault();
  show(await call("POST", "/api/sessions", {
    seat: Number($("#seat").value), bots: $("#bots").value, seed: Number($("#seed").value),
  }));
}

async function loadGame() {
  const file = $("#load").files[0];
  if (!file) return;
  show(await call("POST", "/api/sessions", {
    seat: Number($("#seat").value), bots: $("#bots").value, seed: Number($("#seed").value),
    trace: await file.text(),
  }));
  $("#load").value = "";
}

$("#new-game").addEventListener("submit", newGame);
$("#load").addEventListener("change", loadGame);
$("#undo").onclick = async () => show(await call("POST", `/api/sessions/${session.id}/undo`));
$("#back").onclick = async () => show(await call("POST", `/api/sessions/${session.id}/back`));
$("#forward").onclick = async () => show(await call("POST", `/api/sessions/${session.id}/forward`));

const wanted = new URLSearchParams(location.search).get("session");
if (wanted) {
  call("GET", `/api/sessions/${wanted}`).then((state) => (state ? show(state) : newGame()));
} else if (!document.getElementById("engine-error")) {
  newGame();
}
