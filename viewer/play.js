// The play page of `solodeck serve` (play.html): a game against the deal, with live hints.
// Plain browser JavaScript, no build step: requests go to the server's POST /api (docs/engine.md),
// the drawing is viewer.js's (window.solodeckDraw).
"use strict";

(function () {
  const draw = window.solodeckDraw;
  const $ = (id) => document.getElementById(id);
  const state = { games: [], game: null, history: [], position: null, hints: null, thinking: false, poll: null };

  async function ask(request) {
    const response = await fetch("api", { method: "POST", headers: { "Content-Type": "application/json" },
                                          body: JSON.stringify(request) });
    const reply = await response.json();
    if (reply && reply.type === "error") throw new Error(reply.error);
    return reply;
  }

  function showError(message) {
    $("error").hidden = false;
    $("error").textContent = message;
    document.body.dataset.state = "error";
  }

  function clearError() {
    $("error").hidden = true;
  }

  function optionInputs(game) {
    $("options").innerHTML = Object.entries(game.options).map(([name, o]) =>
      `<label>${draw.esc(name)} <select data-option="${draw.esc(name)}">` +
      o.allowed.map((v) => `<option${v === o.default ? " selected" : ""}>${draw.esc(String(v))}</option>`).join("") +
      "</select></label>").join(" ");
  }

  function chosenOptions(game) {
    const out = {};
    for (const select of $("options").querySelectorAll("select")) {
      const def = game.options[select.dataset.option].default;
      const raw = select.value;
      out[select.dataset.option] = typeof def === "boolean" ? raw === "true" : typeof def === "number" ? Number(raw) : raw;
    }
    return out;
  }

  function scoreText(m) {
    if (m.win_probability !== undefined && m.win_probability !== null) {
      return draw.probabilityHtml(m.win_probability, m.interval, m.samples, m.exact);
    }
    // a proven bound on the best score: a ceiling where a higher score is better, a floor where lower is
    const side = state.game && state.game.score_sense === "lower" ? "at least" : "at most";
    const bound = m.score_bound !== undefined ? `<span class="muted">proven ${side} ${m.score_bound}</span>` : "";
    if (m.score === null || m.score === undefined) return bound;
    return `${m.score}${m.exact ? "" : " <span class=\"muted\">found</span>"}${bound ? ` (${bound})` : ""}`;
  }

  function render() {
    const p = state.position;
    const seen = $("view").value === "seen" && p.seen_picture;
    $("picture").innerHTML = draw.pictureHtml(seen ? p.seen_picture : p.picture);
    $("position").textContent = seen ? p.seen_text : p.text;
    $("ply").textContent = `after ${state.history.length - 1} move${state.history.length === 2 ? "" : "s"}`;
    $("line").innerHTML = state.history.slice(1).map((h) => `<li><code>${draw.esc(h.played)}</code></li>`).join("");
    $("undo").disabled = state.history.length < 2 || state.thinking;
    $("hint").disabled = state.thinking || !p.legal.length;
    $("stop").disabled = false; // also ends an analysis a reloaded page left running
    const hints = state.hints && state.hints.position === p.position ? state.hints : null;
    const rows = hints ? hints.moves : p.legal.map((move) => ({ move }));
    $("moves-head").innerHTML = hints ? "<th>#</th><th>move</th><th>verdict</th><th>value</th>" : "<th>move</th>";
    $("moves-body").innerHTML = rows.map((m, i) => hints
      ? `<tr class="move-row${m.best ? " played" : ""}" data-move="${draw.esc(m.move)}"><td class="rank">${i + 1}</td>` +
        `<td class="move"><button class="play"><code>${draw.esc(m.move)}</code></button></td>` +
        `<td>${draw.verdictBadge(m.verdict)}${m.exact ? "" : ' <span class="muted">estimate</span>'}</td><td>${scoreText(m)}</td></tr>`
      : `<tr class="move-row" data-move="${draw.esc(m.move)}"><td class="move"><button class="play"><code>${draw.esc(m.move)}</code></button></td></tr>`).join("");
    $("movecount").textContent = `(${p.legal.length} legal)`;
    if (p.outcome) {
      $("status").textContent = `game over: ${p.outcome.won ? "won" : "lost"}` +
        (p.outcome.score !== null ? `, ${state.game.score_name || "score"} ${p.outcome.score}` : "");
    } else if (!state.thinking && hints) {
      $("status").textContent = `hint: ${hints.status}, ${hints.seconds.toFixed(2)} s` +
        (hints.problem ? ` (${hints.problem})` : "");
    } else if (!state.thinking) {
      $("status").textContent = "";
    }
    $("play").hidden = false;
    document.body.dataset.position = p.position;
    document.body.dataset.state = state.thinking ? "thinking" : p.outcome || !p.legal.length ? "over" : "ready";
  }

  async function start(request) {
    clearError();
    const reply = await ask(request);
    state.game = state.games.find((g) => g.name === reply.game) || { name: reply.game, score_name: null };
    state.history = [reply];
    state.position = reply;
    state.hints = null;
    $("title").textContent = state.game.title || reply.game;
    const modes = (state.game.modes || ["open"]).slice().sort(); // blind first where there is one
    $("mode").innerHTML = modes.map((m) => `<option value="${m}">${m}</option>`).join("");
    render();
  }

  async function play(move) {
    if (state.thinking) return;
    clearError();
    try {
      const reply = await ask({ cmd: "play", position: state.position.position, move });
      state.history.push(reply);
      state.position = reply;
      render();
    } catch (exc) {
      showError(exc.message);
    }
  }

  async function hint() {
    state.thinking = true;
    render();
    $("status").textContent = "thinking…";
    state.poll = setInterval(async () => {
      try {
        const progress = await (await fetch("api/progress")).json();
        if (progress && state.thinking) {
          $("status").textContent = `thinking… ${progress.nodes.toLocaleString()} nodes, ${progress.valued} moves valued, ${progress.seconds.toFixed(1)} s`;
        }
      } catch (exc) { /* a missed progress line: the next poll tries again */ }
    }, 250);
    try {
      state.hints = await ask({ cmd: "analyse", position: state.position.position, mode: $("mode").value,
                                time_limit: Number($("seconds").value) || 5 });
    } catch (exc) {
      showError(exc.message);
    } finally {
      clearInterval(state.poll);
      state.thinking = false;
      render();
    }
  }

  function bind() {
    $("game").onchange = () => optionInputs(state.games.find((g) => g.name === $("game").value));
    $("start").onsubmit = (event) => {
      event.preventDefault();
      const game = state.games.find((g) => g.name === $("game").value);
      start({ cmd: "new", game: game.name, seed: Number($("seed").value) || 0, options: chosenOptions(game) })
        .catch((exc) => showError(exc.message));
    };
    $("dealfile").onchange = async () => {
      const file = $("dealfile").files[0];
      if (file) start({ cmd: "new", deal: await file.text() }).catch((exc) => showError(`${file.name}: ${exc.message}`));
    };
    $("undo").onclick = () => {
      if (state.history.length > 1 && !state.thinking) {
        state.history.pop();
        state.position = state.history[state.history.length - 1];
        render();
      }
    };
    $("view").onchange = render;
    $("hint").onclick = hint;
    $("stop").onclick = () => ask({ cmd: "stop" }).catch((exc) => showError(exc.message));
    $("moves-body").onclick = (event) => {
      const row = event.target.closest("tr.move-row");
      if (row) play(row.dataset.move);
    };
  }

  async function load() {
    bind();
    state.games = (await ask({ cmd: "games" })).games.filter((g) => !g.several_players);
    $("game").innerHTML = state.games.map((g) => `<option value="${draw.esc(g.name)}">${draw.esc(g.title)}</option>`).join("");
    const params = new URLSearchParams(location.search);
    const wanted = params.get("game");
    if (wanted && !state.games.some((g) => g.name === wanted)) {
      showError(`?game=${wanted}: not a game this page plays (one player: ${state.games.map((g) => g.name).join(", ")})`);
      return;
    }
    if (wanted) $("game").value = wanted;
    if (params.get("seed")) $("seed").value = params.get("seed");
    optionInputs(state.games.find((g) => g.name === $("game").value));
    document.body.dataset.state = "idle";
    if (params.get("game")) $("start").requestSubmit();
  }

  load().catch((exc) => showError(`The page failed: ${exc.message}`));
})();
